import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VisiblePieces } from '../../../src/summarizer/extractive/visible-pieces.js';
import { referenceVisiblePieces } from './visible-pieces-reference.js';

// Characters where the two readings could part: every separator, every white space `\s` knows, bullets,
// closing punctuation, backticks and line breaks.
const SPECIAL = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u200b',
  '`',
  "'",
  '"',
  '(',
  ')',
  '[',
  ']',
  ',',
  ';',
  '.',
  ':',
  '!',
  '?',
  '-',
  '*',
  '1',
  '2',
  '0',
  'a',
  'b',
  '/',
  '_',
  'é',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.constantFrom('src/a.ts', 'https://x.io/p', '- ', '12. ')), {
    maxLength: 60,
  })
  .map((pieces) => pieces.join(''));

/** Wanted pieces drawn from what the text could yield, plus some it cannot. */
function wantedFrom(sample: string, picks: readonly number[]): Set<string> {
  const all = new Set<string>();
  referenceVisiblePieces(sample, { has: () => true } as unknown as ReadonlySet<string>, all);
  const candidates = [...all, 'src/a.ts', 'nope', ''];
  return new Set(picks.map((pick) => candidates[pick % candidates.length] as string));
}

describe('VisiblePieces', () => {
  it('finds exactly the pieces the regular-expression reading found', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 12 }), (sample, picks) => {
        const wanted = wantedFrom(sample, picks);
        const expected = new Set<string>();
        referenceVisiblePieces(sample, wanted, expected);
        const actual = new Set<string>();
        new VisiblePieces(wanted).collect(sample, actual);
        expect([...actual].sort()).toEqual([...expected].sort());
      }),
      { numRuns: 3000 },
    );
  });

  it('sees a path inside a sentence, a bulleted line and a backtick span, and nothing it was not asked for', () => {
    const wanted = new Set(['src/app.ts', 'npm test fails', 'make build', 'a b']);
    const found = new Set<string>();
    new VisiblePieces(wanted).collect('Edited src/app.ts.\n- npm test fails\nthen `make build` ran', found);
    expect(found).toEqual(new Set(['src/app.ts', 'npm test fails', 'make build']));
  });

  it('adds nothing when nothing is wanted', () => {
    const found = new Set<string>();
    new VisiblePieces(new Set()).collect('src/app.ts', found);
    expect(found.size).toBe(0);
  });
});
