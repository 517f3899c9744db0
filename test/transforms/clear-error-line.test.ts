import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clearErrorLine } from '../../src/transforms/output-facts.js';
import { nonBlankLines } from '../../src/transforms/text-facts.js';

const RUNS = { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 400) };
const CLEAR_ERROR =
  /^(?:error|fatal|exception|traceback|panic)\b|^[\w.]*(?:Error|Exception)\b|^npm ERR!|command not found|No such file or directory|Permission denied/i;
const NOT_AN_ERROR = /\b(?:0|no|zero) (?:errors?|failures?|failed)\b|\berrors?: 0\b/i;

/** The oracle: `clearErrorLine` when it split the first 4,000 characters into their non-blank lines. */
function oracle(text: string): string | undefined {
  const first = nonBlankLines(text.slice(0, 4000))[0];
  return first !== undefined && CLEAR_ERROR.test(first) && !NOT_AN_ERROR.test(first) ? first : undefined;
}

const PIECES = [
  'Error: boom',
  'error: 0 errors',
  'TypeError: x is not a function',
  'npm ERR! code 1',
  'bash: foo: command not found',
  'ok',
  'no errors',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '\t',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\ud83d\ude00',
  '\ud83d',
];

describe('clearErrorLine: only the first line read', () => {
  it('answers as splitting the first 4,000 characters did', () => {
    const text = fc.oneof(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((pieces) => pieces.join('')),
      fc.string({ unit: 'binary', maxLength: 60 }),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(clearErrorLine(value)).toBe(oracle(value));
      }),
      RUNS,
    );
  });

  it('answers long blank starts and the 4,000-character cut', () => {
    for (const value of [
      '',
      '\n'.repeat(100_000),
      `${' \n'.repeat(1_999)}Error: late`,
      `${' \n'.repeat(2_000)}Error: past the cut`,
      `${'x'.repeat(3_990)}\nError: cut`,
    ])
      expect(clearErrorLine(value)).toBe(oracle(value));
  });
});
