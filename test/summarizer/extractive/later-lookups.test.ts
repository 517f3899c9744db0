import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LaterLookups } from '../../../src/summarizer/extractive/later-lookups.js';
import { referenceVisiblePieces } from './visible-pieces-reference.js';

const PIECES = [
  'src/a.ts',
  'a',
  'npm test',
  '',
  '`',
  'é',
  '\ud83d\ude00',
  '\ud800',
  ' ',
  '\n',
  'Error: x',
  'b.',
];
const text = fc
  .array(fc.constantFrom(...PIECES, ' ', '- ', '.', ','), { maxLength: 30 })
  .map((p) => p.join(''));
/** Lookups by rank: some ranks look an artifact up, most none; enough distinct ones to pass the few searched. */
const lookups = fc.array(
  fc.option(
    fc.oneof(
      fc.constantFrom(...PIECES),
      fc.integer({ min: 0, max: 40 }).map((n) => `x${n}`),
    ),
    { freq: 2 },
  ),
  { maxLength: 60 },
);

describe('LaterLookups', () => {
  it('never says a line cannot show what it shows: every piece visible in it that is looked up later', () => {
    fc.assert(
      fc.property(lookups, fc.array(fc.tuple(text, fc.nat()), { maxLength: 20 }), (byRank, lines) => {
        const later = new LaterLookups(byRank.map((piece) => piece ?? undefined));
        const ranks = lines.map(([, at]) => at % (byRank.length + 2)).sort((a, b) => a - b);
        lines.forEach(([line], index) => {
          const rank = ranks[index] as number;
          const wanted = new Set(byRank.slice(rank + 1).flatMap((piece) => (piece === null ? [] : [piece])));
          const visible = new Set<string>();
          referenceVisiblePieces(line, wanted, visible);
          const may = later.mayShow(line, rank);
          if (visible.size > 0) expect(may).toBe(true);
          if (wanted.size === 0) expect(may).toBe(false);
          if (wanted.size <= 16 && ![...wanted].some((piece) => line.includes(piece)))
            expect(may).toBe(false);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('answers false past the last lookup and searches a line for the few still to come', () => {
    const later = new LaterLookups([undefined, 'src/a.ts', undefined, 'npm test', undefined]);
    expect(later.mayShow('edited src/a.ts', 0)).toBe(true);
    expect(later.mayShow('edited src/a.ts', 1)).toBe(false);
    expect(later.mayShow('ran npm test', 2)).toBe(true);
    expect(later.mayShow('ran npm test', 3)).toBe(false);
    expect(later.mayShow('anything', 4)).toBe(false);
  });

  it('stays linear: many artifacts still to come are not each searched for', () => {
    const many = Array.from({ length: 5000 }, (_, index) => `artifact-${index}`);
    const later = new LaterLookups([undefined, ...many]);
    const line = 'a'.repeat(1_000_000);
    const started = performance.now();
    expect(later.mayShow(line, 0)).toBe(true);
    // Searching it for each would take seconds.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
