import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linesStartingWith } from '../../src/engines/message-changes.js';
import { TOOL_LINE_PREFIX } from '../../src/engines/rules/markers.js';

/** The count as it was made before: split the text into lines and test each. */
function oracle(text: string, prefix: string): number {
  return text.split('\n').filter((line) => line.startsWith(prefix)).length;
}

const pieceArb = fc.oneof(
  fc.constantFrom('\n', '\r\n', TOOL_LINE_PREFIX, '[tool', ': ', '[', 'x', ' ', '[tool: [tool: '),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

describe('linesStartingWith', () => {
  it('counts the lines that start with the prefix as splitting at line feeds does', () => {
    fc.assert(
      fc.property(
        fc.array(pieceArb, { maxLength: 40 }).map((pieces) => pieces.join('')),
        (text) => {
          expect(linesStartingWith(text, TOOL_LINE_PREFIX)).toBe(oracle(text, TOOL_LINE_PREFIX));
          expect(linesStartingWith(text, '[')).toBe(oracle(text, '['));
        },
      ),
      { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 300) },
    );
  });

  it('finds records at the start, after a line feed, and not in the middle of a line', () => {
    const text = `${TOOL_LINE_PREFIX}a]\nsay ${TOOL_LINE_PREFIX}b]\n${TOOL_LINE_PREFIX}${TOOL_LINE_PREFIX}c]\n`;
    expect(linesStartingWith(text, TOOL_LINE_PREFIX)).toBe(2);
    expect(linesStartingWith('', TOOL_LINE_PREFIX)).toBe(0);
  });
});
