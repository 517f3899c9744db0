import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countOf,
  formatCount,
  formatNumber,
  lineCount,
  plural,
  truncateStart,
} from '../../src/transforms/text-facts.js';

describe('formatNumber', () => {
  it('prints any number exactly as en-US toLocaleString does', () => {
    const values = fc.oneof(
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      fc.constantFrom(
        0,
        -0,
        999,
        1000,
        -1000,
        2 ** 53,
        -(2 ** 53),
        1e21,
        0.5,
        Number.NaN,
        Number.POSITIVE_INFINITY,
      ),
    );
    fc.assert(
      fc.property(values, (value) => {
        expect(formatNumber(value)).toBe(value.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('text facts used in digests', () => {
  it('formats counts the same way on every machine', () => {
    expect([formatCount(0), formatCount(999), formatCount(1000), formatCount(1234567)]).toEqual([
      '0',
      '999',
      '1,000',
      '1,234,567',
    ]);
  });

  it('pluralises units', () => {
    expect([
      plural(1, 'line'),
      plural(2, 'line'),
      plural(3, 'match'),
      plural(4, 'entry'),
      plural(0, 'path'),
    ]).toEqual(['1 line', '2 lines', '3 matches', '4 entries', '0 paths']);
  });

  it('writes counts in notes as they are, singular for one', () => {
    expect([countOf(1, 'token'), countOf(2167, 'token'), countOf(0, 'artifact')]).toEqual([
      '1 token',
      '2167 tokens',
      '0 artifacts',
    ]);
  });

  it('counts lines as a reader sees them', () => {
    expect([
      lineCount(''),
      lineCount('  \n'),
      lineCount('a'),
      lineCount('a\n'),
      lineCount('a\nb'),
      lineCount('a\n\nb\n'),
    ]).toEqual([0, 0, 1, 1, 2, 3]);
  });

  it('truncates at the end without splitting a surrogate pair', () => {
    expect(truncateStart('abcdef', 10)).toBe('abcdef');
    expect(truncateStart('abcdef', 3)).toBe('abc…');
    expect(truncateStart('ab😀cd', 3)).toBe('ab…');
  });
});
