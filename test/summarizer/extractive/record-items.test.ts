import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelledLine, pathOfFileLine } from '../../../src/summarizer/extractive/record-items.js';
import { createExtractiveSummarizer } from '../../../src/summarizer/index.js';
import { assistantMessage, userMessage } from '../../../src/testing.js';
import { request } from '../helpers.js';

// The regexes replaced: the oracles, fast on short strings only.
const PATH_END = /\s+[(—]/;
const LABELLED = /^\s*[-*]\s+([^:]{1,40}):\s+(.+)$/;

const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\u00a0', '\u2028', '\u2029', '\ufeff'];

function textOf(pieces: readonly string[], maxLength = 20) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

describe('previous checkpoint lines carried into the record', () => {
  it('cut a files-changed line at its path as the regex did', () => {
    const text = textOf(['(', '—', 'a', '/', '-', ...WHITESPACE]);
    fc.assert(
      fc.property(text, (value) => {
        expect(pathOfFileLine(value)).toBe(value.split(PATH_END)[0] ?? '');
      }),
      { numRuns: 10_000 },
    );
  });

  it('read a labelled references line as the regex did', () => {
    const text = textOf(['-', '*', ':', 'paths', 'a, b', 'x'.repeat(20), ...WHITESPACE]);
    fc.assert(
      fc.property(text, (value) => {
        const match = LABELLED.exec(value);
        expect(labelledLine(value)).toEqual(
          match === null ? undefined : { label: match[1], values: match[2] },
        );
      }),
      { numRuns: 20_000 },
    );
  });

  it('update a hostile previous checkpoint in linear time: long runs of white space in its lines', async () => {
    // The regexes took quadratic time: 64 KB of spaces in a line, 1.8 s and 2.3 s.
    const spaces = ' '.repeat(1_000_000);
    const previousSummary =
      `## Files Changed\n- a${spaces}b\n- src/x.ts (modified)\n` +
      `## References\n- paths:${spaces}x\ry\n- URLs: https://example.com/a, https://example.com/b`;
    const result = await createExtractiveSummarizer().summarize(
      request([userMessage('go on'), assistantMessage('ok')], { previousSummary, targetTokens: 4000 }),
    );
    expect(result.text).toContain('https://example.com/b');
  });
});
