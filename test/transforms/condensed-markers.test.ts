import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DIGEST_PREFIX,
  DUPLICATE_PREFIX,
  isCondensedOutput,
} from '../../src/transforms/condensed-markers.js';

const RUNS = { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 400) };
const FOREIGN_PREFIXES = ['[Duplicate tool output', '[Old tool output cleared', '[screenshot removed'];

/** The oracle: `isCondensedOutput` before its first-character check. */
function oracle(text: string): boolean {
  const start = text.trimStart();
  return (
    start.startsWith(DIGEST_PREFIX) ||
    start.startsWith(DUPLICATE_PREFIX) ||
    FOREIGN_PREFIXES.some((prefix) => start.startsWith(prefix))
  );
}

const PIECES = [
  DIGEST_PREFIX,
  DUPLICATE_PREFIX,
  ...FOREIGN_PREFIXES,
  '[',
  '[output',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\ud83d',
  '\ud83d\ude00',
  'é',
  'ok',
];

describe('isCondensedOutput: the first-character check', () => {
  it('answers every text as the check on the trimmed text did', () => {
    const text = fc.oneof(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((pieces) => pieces.join('')),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(isCondensedOutput(value)).toBe(oracle(value));
      }),
      RUNS,
    );
  });

  it('answers empty text and long white space', () => {
    for (const value of ['', ' '.repeat(100_000), `${'\u3000'.repeat(10_000)}${DIGEST_PREFIX} x`])
      expect(isCondensedOutput(value)).toBe(oracle(value));
  });
});
