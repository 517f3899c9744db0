import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPLIT_LIMITS, type SplitLimits, sumOverPieces } from '../../src/tokens/split-text.js';
import { PATHOLOGICAL } from './helpers.js';

function piecesOf(text: string, limits: SplitLimits = DEFAULT_SPLIT_LIMITS): string[] {
  const pieces: string[] = [];
  sumOverPieces(text, limits, (piece) => {
    pieces.push(piece);
    return 1;
  });
  return pieces;
}

/** Longest run of one class (whitespace, letter or non-ASCII, digit, other) in a piece. */
function longestRun(piece: string): number {
  const classOf = (code: number) =>
    code >= 0x80 || /[A-Za-z]/.test(String.fromCharCode(code))
      ? 1
      : code === 32 || (code >= 9 && code <= 13)
        ? 0
        : code >= 48 && code <= 57
          ? 2
          : 3;
  let longest = 0;
  let run = 0;
  let previous = -1;
  for (let index = 0; index < piece.length; index++) {
    const kind = classOf(piece.charCodeAt(index));
    run = kind === previous ? run + 1 : 1;
    previous = kind;
    longest = Math.max(longest, run);
  }
  return longest;
}

const anyUtf16 = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
});

describe('sumOverPieces', () => {
  it('hands a short text to the tokenizer whole and an empty text not at all', () => {
    expect(piecesOf('hello world')).toEqual(['hello world']);
    expect(piecesOf('')).toEqual([]);
  });

  it('returns the sum of the piece counts', () => {
    const text = PATHOLOGICAL.hex(10_000);
    expect(sumOverPieces(text, DEFAULT_SPLIT_LIMITS, (piece) => piece.length)).toBe(text.length);
  });

  it('cuts prose only before a space that follows a word', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(500);
    const pieces = piecesOf(text);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(1)) expect(piece.startsWith(' ')).toBe(true);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(DEFAULT_SPLIT_LIMITS.maxPiece);
  });

  it('cuts long digit runs at multiples of three so digit groups stay intact', () => {
    const pieces = piecesOf('9'.repeat(2000));
    for (const piece of pieces.slice(0, -1)) expect(piece.length % 3).toBe(0);
  });

  it('never separates the two halves of a surrogate pair', () => {
    const text = '😀'.repeat(5000);
    for (const piece of piecesOf(text, { maxRun: 7, maxPiece: 11 })) {
      expect(piece.length % 2).toBe(0);
      expect(piece.startsWith('😀')).toBe(true);
    }
  });

  it('keeps every piece within the limits and the pieces concatenate to the input', () => {
    const limits = { maxRun: 16, maxPiece: 64 };
    fc.assert(
      fc.property(
        anyUtf16,
        fc.string({ unit: fc.constantFrom('a', ' ', '1', '.', '\n', 'é', '😀') }),
        (mixed, runs) => {
          for (const text of [mixed, runs, `${mixed}${runs.repeat(20)}`]) {
            const pieces = piecesOf(text, limits);
            expect(pieces.join('')).toBe(text);
            for (const piece of pieces) {
              expect(piece.length).toBeLessThanOrEqual(limits.maxPiece + 1);
              expect(longestRun(piece)).toBeLessThanOrEqual(limits.maxRun + 1);
              expect(piece.length).toBeGreaterThan(0);
            }
          }
        },
      ),
    );
  });

  describe('keeps tokenizer work linear on pathological input', () => {
    // A quadratic tokenizer's work is the sum of squared piece lengths: bounded pieces make it linear in n.
    const work = (pieces: readonly string[]) => pieces.reduce((sum, piece) => sum + piece.length ** 2, 0);
    for (const [name, make] of Object.entries(PATHOLOGICAL)) {
      it(`${name}: 4× the input costs 4× the calls and 4× the quadratic work`, () => {
        const small = piecesOf(make(256 * 1024));
        const large = piecesOf(make(1024 * 1024));
        expect(large.join('').length).toBe(1024 * 1024);
        expect(Math.max(...large.map((piece) => piece.length))).toBeLessThanOrEqual(
          DEFAULT_SPLIT_LIMITS.maxPiece,
        );
        expect(Math.max(...large.map(longestRun))).toBeLessThanOrEqual(DEFAULT_SPLIT_LIMITS.maxRun);
        expect(large.length / small.length).toBeGreaterThan(3.9);
        expect(large.length / small.length).toBeLessThan(4.1);
        expect(work(large) / work(small)).toBeLessThan(4.1);
        expect(work(large)).toBeLessThanOrEqual(1024 * 1024 * DEFAULT_SPLIT_LIMITS.maxPiece);
      });
    }
  });
});
