import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { substringScan } from '../../src/inspect/substring-scan.js';

// A small alphabet makes patterns overlap, nest and repeat; the surrogate halves and the astral character check
// that matching is by UTF-16 code unit, as `includes` is.
const CHARACTERS = ['a', 'b', 'c', 'ab', '\n', 'é', '😀', '\ud83d', '/'];
const textArb = fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 30 }).map((pieces) => pieces.join(''));
const patternArb = fc
  .array(fc.constantFrom(...CHARACTERS), { maxLength: 5 })
  .map((pieces) => pieces.join(''));

describe('substringScan', () => {
  it('reports each pattern once, in the first text that includes it, as `includes` decides', () => {
    fc.assert(
      fc.property(
        fc.array(patternArb, { maxLength: 12 }),
        fc.array(textArb, { maxLength: 6 }),
        (patterns, texts) => {
          const scan = substringScan(patterns);
          const reported = new Set<number>();
          for (const [at, text] of texts.entries()) {
            const found = scan.scan(text);
            expect(new Set(found).size).toBe(found.length);
            for (const index of found) {
              expect(reported.has(index)).toBe(false);
              reported.add(index);
            }
            const expected = patterns.flatMap((pattern, index) =>
              texts.slice(0, at + 1).some((seen) => seen.includes(pattern)) ? [index] : [],
            );
            expect([...reported].sort((a, b) => a - b)).toEqual(expected);
            expect(scan.complete).toBe(expected.length === patterns.length);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds nested and overlapping patterns ending at the same place', () => {
    const scan = substringScan(['she', 'he', 'hers', 'e', 'his']);
    expect(scan.scan('ushers').sort()).toEqual([0, 1, 2, 3]);
    expect(scan.complete).toBe(false);
    expect(scan.scan('this')).toEqual([4]);
    expect(scan.complete).toBe(true);
  });

  it('reports every index of a repeated pattern, and an empty pattern on the first text', () => {
    const scan = substringScan(['ab', '', 'ab']);
    expect(scan.scan('').sort()).toEqual([1]);
    expect(scan.scan('xaby').sort()).toEqual([0, 2]);
    expect(scan.complete).toBe(true);
  });

  it('does not match across two texts', () => {
    const scan = substringScan(['ab']);
    expect(scan.scan('xa')).toEqual([]);
    expect(scan.scan('by')).toEqual([]);
  });

  it('is complete from the start with no patterns', () => {
    expect(substringScan([]).complete).toBe(true);
    expect(substringScan([]).scan('anything')).toEqual([]);
  });
});
