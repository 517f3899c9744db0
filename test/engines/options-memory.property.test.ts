import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompressorOptions,
  parseCompressorSettings,
  resolveCompressorSettings,
} from '../../src/engines/compressor/options.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';

/*
 * `resolveCompressorSettings` remembers valid settings by the option values they came from; the schema check
 * (`parseCompressorSettings`) is the reference: the same settings for the same options, the same error for
 * wrong ones, however often and in whatever order options are resolved.
 */

function outcome(resolve: () => unknown): unknown {
  try {
    return { settings: resolve() };
  } catch (error) {
    return { error: String(error), code: (error as { code?: string }).code };
  }
}

/** Values a field may be given: valid and wrong, of every type, with the numbers that print alike. */
const value = fc.oneof(
  fc.constantFrom(0, -0, 1, 2, 3, 0.5, 0.2, 1.5, -1, 8000, 128_000, Number.NaN, Number.POSITIVE_INFINITY),
  fc.integer({ min: -2, max: 300_000 }),
  fc.double({ min: -2, max: 2, noNaN: true }),
  fc.constantFrom('newest', 'earliest', 'strip', 'stub', '1', '', 'newest;orphanCalls=stub', '"strip"'),
  fc.boolean(),
  fc.constantFrom(undefined, null, 1n, [], {}, () => 1, createRoughCounter()),
);

const keys = [
  'contextLength',
  'maxOutputTokens',
  'thresholdPercent',
  'protectFirstN',
  'protectLastN',
  'tailRatio',
  'summaryRatio',
  'summaryMinTokens',
  'summaryMaxTokens',
  'summaryMaxShare',
  'dedupeKeep',
  'orphanCalls',
  'noteInSystemPrompt',
  'abortOnSummaryFailure',
  'model',
  'counter',
  'now',
  'unknownKey',
] as const;

const options = fc.dictionary(fc.constantFrom(...keys), value, {
  maxKeys: 5,
}) as fc.Arbitrary<CompressorOptions>;

describe('remembered compressor settings', () => {
  it('resolve to what the schema says, error for error, on first and repeated calls', () => {
    fc.assert(
      fc.property(fc.array(options, { minLength: 1, maxLength: 6 }), (list) => {
        for (const item of [...list, ...list]) {
          expect(outcome(() => resolveCompressorSettings(item))).toEqual(
            outcome(() => parseCompressorSettings(item)),
          );
        }
      }),
      { numRuns: 400 },
    );
  });

  it('tell apart values that print alike', () => {
    expect(resolveCompressorSettings({ maxOutputTokens: 0 }).maxOutputTokens).toBe(0);
    expect(Object.is(resolveCompressorSettings({ maxOutputTokens: -0 }).maxOutputTokens, -0)).toBe(true);
    expect(resolveCompressorSettings({ dedupeKeep: 'earliest' }).dedupeKeep).toBe('earliest');
    expect(() => resolveCompressorSettings({ contextLength: '8000' as never })).toThrow(/contextLength/);
    expect(resolveCompressorSettings({ contextLength: 8000 }).contextLength).toBe(8000);
    expect(() => resolveCompressorSettings({ contextLength: '8000' as never })).toThrow(/contextLength/);
  });

  it('read options the way the schema does: inherited, non-enumerable and getter values', () => {
    const inherited = Object.create({ contextLength: 9000 }) as CompressorOptions;
    expect(resolveCompressorSettings(inherited)).toEqual(parseCompressorSettings(inherited));
    const hidden = {} as CompressorOptions;
    Object.defineProperty(hidden, 'contextLength', { value: 7000, enumerable: false });
    expect(resolveCompressorSettings(hidden).contextLength).toBe(7000);
    let reads = 0;
    const changing = {
      get contextLength() {
        reads++;
        return reads === 1 ? 5000 : 0;
      },
    } as CompressorOptions;
    // Whatever it answers, the settings hold the value the schema accepted.
    expect(resolveCompressorSettings(changing).contextLength).toBe(5000);
    expect(resolveCompressorSettings({ contextLength: 5000 }).contextLength).toBe(5000);
  });

  it('reject arrays and non-objects as the schema does', () => {
    for (const bad of [[], null, 3, 'x'] as unknown as CompressorOptions[]) {
      expect(outcome(() => resolveCompressorSettings(bad))).toEqual(
        outcome(() => parseCompressorSettings(bad)),
      );
    }
  });

  it('hand out frozen settings, so one caller cannot change another’s', () => {
    const settings = resolveCompressorSettings({ contextLength: 12_345 });
    expect(Object.isFrozen(settings)).toBe(true);
    expect(resolveCompressorSettings({ contextLength: 12_345 })).toBe(settings);
  });
});
