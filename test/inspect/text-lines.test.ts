import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countNonBlankLines, firstNonBlankLine } from '../../src/inspect/text-lines.js';

/** The lines as `split` gives them, which the scanner must reproduce without building them. */
function splitLines(text: string): string[] {
  return text
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

// Line breaks of every kind, ASCII and Unicode spaces that trim removes, control characters it keeps, and a
// lone surrogate.
const PIECES = [
  '\n',
  '\r',
  '\r\n',
  '\n\r',
  ' ',
  '\t',
  '\v',
  '\f',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u0001',
  '\u001f',
  'a',
  'Zz',
  '7',
  '€',
  '\ud83d',
  '\ud83d\ude00',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((pieces) => pieces.join(''));

describe('text lines', () => {
  it('finds the first non-blank line exactly as splitting and trimming every line does', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 80 })), (sample) => {
        expect(firstNonBlankLine(sample)).toBe(splitLines(sample)[0] ?? '');
      }),
      { numRuns: 3000 },
    );
  });

  it('counts the non-blank lines exactly as splitting and trimming every line does', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 80 })), (sample) => {
        expect(countNonBlankLines(sample)).toBe(splitLines(sample).length);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts long texts with dense, sparse and mixed breaks as splitting does', () => {
    const samples = [
      `${'line\n'.repeat(50_000)}${'x'.repeat(100_000)}\r`,
      `\r${'a'.repeat(200_000)}\n\n b`,
      '\r\n \n\r'.repeat(40_000),
      `${'\n'.repeat(100_000)}${'\r'.repeat(100_000)}z`,
      `${'a\rb\n'.repeat(30_000)}\u2028\r\n`,
    ];
    for (const sample of samples) expect(countNonBlankLines(sample)).toBe(splitLines(sample).length);
  });

  it('answers for empty, blank and single-line text', () => {
    expect(firstNonBlankLine('')).toBe('');
    expect(countNonBlankLines('')).toBe(0);
    expect(firstNonBlankLine(' \r\n\t\n')).toBe('');
    expect(countNonBlankLines('\u0001')).toBe(1);
    expect(firstNonBlankLine('\n\n  $ npm test  \r\nok')).toBe('$ npm test');
    expect(countNonBlankLines('a\r\rb\n\nc\n')).toBe(3);
  });
});
