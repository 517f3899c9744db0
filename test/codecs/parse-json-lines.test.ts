import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonLines } from '../../src/codecs/document.js';

const LINES = ['{"a":1}', '[1,2]', '{"a":', 'not json', '', '   ', '"text"', '{"b":{"c":[]}}'];

describe('parseJsonLines', () => {
  it('calls only an unreadable line with nothing but blank lines after it truncated', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 30 }), (lines) => {
        const parsed = parseJsonLines(lines.join('\n'));
        for (const issue of parsed.issues) {
          const index = (issue.line ?? 0) - 1;
          const last = lines.slice(index + 1).every((rest) => rest.trim() === '');
          expect(issue.code).toBe(last ? 'truncated-line' : 'invalid-json');
        }
        expect(parsed.values.length + parsed.invalid.length).toBe(
          lines.filter((line) => line.trim() !== '').length,
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('reads a file of many unreadable lines in one pass over it', () => {
    const lines = Array.from({ length: 50_000 }, (_, index) => (index % 2 === 0 ? '{"a":' : '{"ok":true}'));
    const parsed = parseJsonLines(lines.join('\n'));
    expect(parsed.invalid).toHaveLength(25_000);
    expect(parsed.issues.filter((issue) => issue.code === 'truncated-line')).toHaveLength(0);
  });
});
