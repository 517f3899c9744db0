import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { parseTrajectoryConfig } from '../../src/trajectory/trajectory-config.js';
import {
  DEFAULT_SUMMARY_NOTICE,
  DEFAULT_TRAJECTORY_SETTINGS,
  resolveTrajectorySettings,
  type TrajectorySettings,
} from '../../src/trajectory/trajectory-settings.js';

/** The resolver before settings were declared as a zod schema, kept as the reference. */
function previous(settings: TrajectorySettings): unknown {
  const d = DEFAULT_TRAJECTORY_SETTINGS;
  const target = settings.targetMaxTokens ?? d.targetMaxTokens;
  const summary = settings.summaryTargetTokens ?? d.summaryTargetTokens;
  const last = settings.protectLastTurns ?? d.protectLastN;
  const positive = (v: number) => Number.isInteger(v) && v > 0;
  if (!positive(target) || !positive(summary) || summary >= target) return 'rejected';
  if (!Number.isInteger(last) || last < 0) return 'rejected';
  const notice = settings.summaryNotice;
  return {
    targetMaxTokens: target,
    summaryTargetTokens: summary,
    protectFirst: { ...d.protectFirst, ...settings.protectFirst },
    protectLastN: last,
    strategy: settings.strategy ?? d.strategy,
    summaryStyle: settings.summaryStyle ?? d.summaryStyle,
    onSummaryFailure: settings.onSummaryFailure ?? d.onSummaryFailure,
    summaryNotice: notice === true ? DEFAULT_SUMMARY_NOTICE : notice === false ? undefined : notice,
    policy: settings.policy ?? d.policy,
    redact: settings.redact ?? d.redact,
  };
}

function outcome(resolve: () => unknown): unknown {
  try {
    return resolve();
  } catch (error) {
    if (isCondenseError(error) && error.code === 'INVALID_OPTIONS') return 'rejected';
    throw error;
  }
}

function errorOf(action: () => unknown): { message: string; hint: string | undefined } {
  try {
    action();
  } catch (error) {
    if (isCondenseError(error) && error.code === 'INVALID_OPTIONS')
      return { message: error.message, hint: error.hint };
    throw error;
  }
  throw new Error('expected INVALID_OPTIONS');
}

const integer = fc.oneof(fc.integer({ min: -3, max: 40 }), fc.integer({ min: 0, max: 40_000 }));
const settings = fc.record(
  {
    targetMaxTokens: integer,
    summaryTargetTokens: integer,
    protectFirst: fc.record(
      { system: fc.boolean(), user: fc.boolean(), assistant: fc.boolean(), tool: fc.boolean() },
      { requiredKeys: [] },
    ),
    protectLastTurns: fc.oneof(integer, fc.double({ min: 0, max: 5, noNaN: true })),
    strategy: fc.constantFrom('single-pass', 'escalate'),
    summaryStyle: fc.constantFrom('hermes', 'condense'),
    onSummaryFailure: fc.constantFrom('extractive', 'marker'),
    summaryNotice: fc.oneof(fc.boolean(), fc.string()),
    policy: fc.constantFrom({}, { name: 'p', focus: 'errors' }),
    redact: fc.constantFrom(false as const, {}),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<TrajectorySettings>;

describe('trajectory settings declared as a schema', () => {
  it('accepts and rejects the same settings as the previous resolver, and resolves them alike', () => {
    fc.assert(
      fc.property(settings, (value) => {
        expect(outcome(() => resolveTrajectorySettings(value))).toEqual(previous(value));
      }),
      { numRuns: 500 },
    );
  });

  it('reads protectLastTurns as a deprecated alias of protectLastN', () => {
    fc.assert(
      fc.property(settings, fc.integer({ min: 0, max: 30 }), (value, n) => {
        const { protectLastTurns: _old, ...rest } = value;
        const canonical = outcome(() => resolveTrajectorySettings({ ...rest, protectLastN: n }));
        expect(outcome(() => resolveTrajectorySettings({ ...rest, protectLastTurns: n }))).toEqual(canonical);
      }),
    );
    expect(
      errorOf(() => resolveTrajectorySettings({ protectLastN: 1, protectLastTurns: 2 })).message,
    ).toContain('deprecated alias protectLastTurns');
  });

  it('rejects an unknown setting, naming it and the known ones', () => {
    const unknown = errorOf(() => resolveTrajectorySettings({ protectLast: 3 } as never));
    expect(unknown.message).toBe('unknown trajectory setting "protectLast" (did you mean "protectLastN"?)');
    expect(unknown.hint).toMatch(/^known settings: targetMaxTokens, .*protectLastN/);
    const nested = errorOf(() => resolveTrajectorySettings({ protectFirst: { human: false } } as never));
    expect(nested.message).toBe('protectFirst: unknown trajectory setting "human"');
    expect(nested.hint).toContain('known settings in protectFirst: system, user, assistant, tool');
  });

  it('rejects values of the wrong kind that the previous resolver let through', () => {
    expect(errorOf(() => resolveTrajectorySettings({ strategy: 'twice' as never })).message).toBe(
      'strategy must be "single-pass" or "escalate", got "twice"',
    );
  });

  it('still reads last_n_turns from configuration files, and names an unknown key with the known ones', () => {
    expect(parseTrajectoryConfig('protected_turns:\n  last_n_turns: 3\n').settings).toMatchObject({
      protectLastN: 3,
    });
    const unknown = errorOf(() => parseTrajectoryConfig('protected_turns:\n  last_turns: 3\n'));
    expect(unknown.message).toBe('protected_turns: unknown key "last_turns" (did you mean "last_n_turns"?)');
    expect(unknown.hint).toContain('known keys in protected_turns: first_system, first_human');
    expect(unknown.hint).toContain('last_n_turns');
    expect(errorOf(() => parseTrajectoryConfig('summarization:\n  temperature: 3\n')).message).toBe(
      'summarization.temperature must be a number in [0, 2], got 3',
    );
  });
});
