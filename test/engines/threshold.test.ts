import { describe, expect, it } from 'vitest';
import { computeThreshold } from '../../src/engines/threshold.js';

describe('threshold arithmetic', () => {
  it.each([
    [100_000, 0.5, undefined, 75_000],
    [64_000, 0.5, undefined, 54_400],
    [32_000, 0.5, undefined, 27_200],
    [1_000_000, 0.5, undefined, 500_000],
    [200_000, 0.5, 65_536, 100_848],
    [600_000, 0.1, undefined, 64_000],
  ])(
    'window %i at %f with reserve %s triggers at %i tokens',
    (contextLength, thresholdPercent, maxOutputTokens, expected) => {
      expect(
        computeThreshold({
          contextLength,
          thresholdPercent,
          ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
        }),
      ).toBe(expected);
    },
  );
});
