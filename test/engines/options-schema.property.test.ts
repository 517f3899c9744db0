import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPRESSOR_DEFAULTS,
  type CompressorOptions,
  resolveCompressorSettings,
} from '../../src/engines/compressor/options.js';
import {
  RULE_PRESET_SETTINGS,
  type RuleEngineOptions,
  resolveRuleSettings,
} from '../../src/engines/rules/options.js';
import { isCondenseError } from '../../src/errors/condense-error.js';

/*
 * The resolvers before options were declared as zod schemas, kept here as the reference: for any options with
 * finite numbers, the schemas accept and reject the same objects and resolve them to the same settings.
 */

function outcome<T>(resolve: () => T): T | 'rejected' {
  try {
    return resolve();
  } catch (error) {
    if (isCondenseError(error) && error.code === 'INVALID_OPTIONS') return 'rejected';
    throw error;
  }
}

function previousCompressor(options: CompressorOptions): unknown {
  const d = COMPRESSOR_DEFAULTS;
  const s = {
    contextLength: options.contextLength ?? d.contextLength,
    maxOutputTokens: options.maxOutputTokens,
    thresholdPercent: options.thresholdPercent ?? d.thresholdPercent,
    protectFirstN: options.protectFirstN ?? d.protectFirstN,
    protectLastN: options.protectLastN ?? d.protectLastN,
    tailRatio: Math.min(0.8, Math.max(0.1, options.tailRatio ?? d.tailRatio)),
    summaryRatio: options.summaryRatio ?? d.summaryRatio,
    summaryMinTokens: options.summaryMinTokens ?? d.summaryMinTokens,
    summaryMaxTokens: options.summaryMaxTokens ?? d.summaryMaxTokens,
    summaryMaxShare: options.summaryMaxShare ?? d.summaryMaxShare,
    dedupeKeep: options.dedupeKeep ?? d.dedupeKeep,
    orphanCalls: options.orphanCalls ?? d.orphanCalls,
    noteInSystemPrompt: options.noteInSystemPrompt ?? d.noteInSystemPrompt,
    abortOnSummaryFailure: options.abortOnSummaryFailure ?? d.abortOnSummaryFailure,
  };
  const positive = (v: number) => Number.isInteger(v) && v > 0;
  const count = (v: number) => Number.isInteger(v) && v >= 0;
  const ratio = (v: number) => Number.isFinite(v) && v > 0 && v <= 1;
  const ok =
    positive(s.contextLength) &&
    (s.maxOutputTokens === undefined || s.maxOutputTokens >= 0) &&
    ratio(s.thresholdPercent) &&
    ratio(s.summaryRatio) &&
    ratio(s.summaryMaxShare) &&
    count(s.protectFirstN) &&
    count(s.protectLastN) &&
    positive(s.summaryMinTokens) &&
    positive(s.summaryMaxTokens);
  return ok ? s : 'rejected';
}

function previousRules(options: RuleEngineOptions): unknown {
  const preset = options.preset ?? 'default';
  const base = RULE_PRESET_SETTINGS[preset];
  const s = {
    preset,
    enabled: options.enabled ?? base.enabled,
    contextLength: options.contextLength ?? base.contextLength,
    maxOutputTokens: options.maxOutputTokens,
    triggerThreshold: options.triggerThreshold ?? base.triggerThreshold,
    protectLastN: options.protectLastNTurns ?? base.protectLastN,
    maxToolOutputChars: options.maxToolOutputChars ?? base.maxToolOutputChars,
    truncateHeadLines: options.truncateHeadLines ?? base.truncateHeadLines,
    truncateTailLines: options.truncateTailLines ?? base.truncateTailLines,
    keepToolSummary: options.keepToolSummary ?? base.keepToolSummary,
    dropSystemAfterTurn: options.dropSystemAfterTurn ?? base.dropSystemAfterTurn,
    collapseConsecutiveAssistant: options.collapseConsecutiveAssistant ?? base.collapseConsecutiveAssistant,
    cacheFriendly: options.cacheFriendly ?? base.cacheFriendly,
  };
  const atLeast = (v: number, min: number) => Number.isInteger(v) && v >= min;
  const ok =
    atLeast(s.contextLength, 1) &&
    (s.maxOutputTokens === undefined || atLeast(s.maxOutputTokens, 0)) &&
    s.triggerThreshold > 0 &&
    s.triggerThreshold <= 1 &&
    atLeast(s.protectLastN, 1) &&
    atLeast(s.maxToolOutputChars, 50) &&
    atLeast(s.truncateHeadLines, 1) &&
    atLeast(s.truncateTailLines, 0) &&
    atLeast(s.dropSystemAfterTurn, 0);
  return ok ? s : 'rejected';
}

/** Whole numbers around the limits, and fractions, all finite. */
const integer = fc.oneof(fc.integer({ min: -3, max: 60 }), fc.integer({ min: 0, max: 400_000 }));
const number = fc.oneof(integer, fc.double({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true }));
const ratio = fc.oneof(fc.double({ min: 0, max: 1.2, noNaN: true, noDefaultInfinity: true }), fc.constant(1));
const flag = fc.boolean();

const compressorOptions = fc.record(
  {
    contextLength: integer,
    maxOutputTokens: number,
    thresholdPercent: ratio,
    protectFirstN: integer,
    protectLastN: integer,
    tailRatio: number,
    summaryRatio: ratio,
    summaryMinTokens: integer,
    summaryMaxTokens: integer,
    summaryMaxShare: ratio,
    dedupeKeep: fc.constantFrom('newest', 'earliest'),
    orphanCalls: fc.constantFrom('strip', 'stub'),
    noteInSystemPrompt: flag,
    abortOnSummaryFailure: flag,
  },
  { requiredKeys: [] },
) as fc.Arbitrary<CompressorOptions>;

const ruleOptions = fc.record(
  {
    preset: fc.constantFrom('default', 'strict'),
    enabled: flag,
    contextLength: integer,
    maxOutputTokens: integer,
    triggerThreshold: ratio,
    protectLastNTurns: integer,
    maxToolOutputChars: integer,
    truncateHeadLines: integer,
    truncateTailLines: integer,
    keepToolSummary: flag,
    dropSystemAfterTurn: integer,
    collapseConsecutiveAssistant: flag,
    cacheFriendly: flag,
  },
  { requiredKeys: [] },
) as fc.Arbitrary<RuleEngineOptions>;

describe('engine options declared as schemas', () => {
  it('compressor: the same objects accepted, resolved to the same settings, as the previous resolver', () => {
    fc.assert(
      fc.property(compressorOptions, (options) => {
        expect(outcome(() => resolveCompressorSettings(options))).toEqual(previousCompressor(options));
      }),
      { numRuns: 500 },
    );
  });

  it('rules: the same objects accepted, resolved to the same settings, as the previous resolver', () => {
    fc.assert(
      fc.property(ruleOptions, (options) => {
        expect(outcome(() => resolveRuleSettings(options))).toEqual(previousRules(options));
      }),
      { numRuns: 500 },
    );
  });

  it('rules: protectLastNTurns is an alias of protectLastN', () => {
    fc.assert(
      fc.property(ruleOptions, fc.integer({ min: 1, max: 50 }), (options, n) => {
        const { protectLastNTurns: _old, ...rest } = options;
        const canonical = outcome(() => resolveRuleSettings({ ...rest, protectLastN: n }));
        expect(outcome(() => resolveRuleSettings({ ...rest, protectLastNTurns: n }))).toEqual(canonical);
        expect(
          outcome(() => resolveRuleSettings({ ...rest, protectLastN: n, protectLastNTurns: n })),
        ).toEqual(canonical);
      }),
    );
    expect(() => resolveRuleSettings({ protectLastN: 2, protectLastNTurns: 3 })).toThrow(
      /protectLastN \(2\) and its deprecated alias protectLastNTurns \(3\) disagree/,
    );
  });

  it.each([
    [
      'compressor',
      () => resolveCompressorSettings({ protectLastTurns: 3 } as never),
      /unknown compressor option "protectLastTurns"/,
    ],
    [
      'rules',
      () => resolveRuleSettings({ protectLastTurns: 3 } as never),
      /unknown rules engine option "protectLastTurns"/,
    ],
  ])('%s: rejects an unknown key, naming it and the known ones', (_name, resolve, message) => {
    let caught: unknown;
    try {
      resolve();
    } catch (error) {
      caught = error;
    }
    expect(isCondenseError(caught) && caught.code).toBe('INVALID_OPTIONS');
    expect(isCondenseError(caught) && caught.message).toMatch(message);
    expect(isCondenseError(caught) && caught.hint).toMatch(/^known options: .*protectLastN/);
  });

  it('says which option is wrong, what it must be and what it was', () => {
    expect(() => resolveCompressorSettings({ contextLength: 0 })).toThrow(
      'contextLength must be a positive integer, got 0',
    );
    expect(() => resolveCompressorSettings({ dedupeKeep: 'oldest' as never })).toThrow(
      'dedupeKeep must be "newest" or "earliest", got "oldest"',
    );
    expect(() => resolveRuleSettings({ triggerThreshold: 1.5, maxToolOutputChars: 10 })).toThrow(
      /triggerThreshold must be a share of the context window in \(0, 1\].*, got 1\.5; maxToolOutputChars must be a whole number of characters ≥ 50, got 10/,
    );
  });
});
