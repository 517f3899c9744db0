import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCheckpoint } from '../../src/transforms/checkpoint-text.js';

// What the text before Hermes' merge delimiter used to be trimmed with: the oracle for `trimEnd`.
const TRAILING_SPACE = /\s+$/;

const WHITESPACE = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u3000',
  '\u200b',
];
const MERGED = '[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]\n[CONTEXT SUMMARY]: the summary';

describe('parseCheckpoint: Hermes merged summaries', () => {
  it('trims the text before the summary as the regex did', () => {
    const text = fc
      .array(fc.constantFrom('a', 'é', '\u0085', ...WHITESPACE), { maxLength: 20 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(value.trimEnd()).toBe(value.replace(TRAILING_SPACE, ''));
        const rest = `own words ${value}`.replace(TRAILING_SPACE, '');
        expect(parseCheckpoint(`own words ${value}${MERGED}`)).toEqual({
          body: 'the summary',
          author: 'hermes-legacy',
          rest,
        });
      }),
      { numRuns: 5000 },
    );
  });

  it('reads a hostile merged summary in linear time: a long run of white space before the summary', () => {
    // The regex took quadratic time: 64 KB of spaces, 2.4 s; 256 KB, 37 s.
    const spaces = ' '.repeat(1_000_000);
    expect(parseCheckpoint(`a${spaces}b${MERGED}`)?.rest).toBe(`a${spaces}b`);
  });
});
