import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  readPreviousCheckpoint,
  userMessagesHeading,
} from '../../../src/summarizer/extractive/previous-checkpoint.js';

// The regex userMessagesHeading replaces: the oracle, fast on short strings only.
const USER_MESSAGES_HEADING = /^\s*(?:\d+\.\s*)?\**All (?:user|the user'?s?) messages\**:?\**\s*$/im;

const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\u00a0', '\u2028', '\u2029', '\ufeff'];

function textOf(pieces: readonly string[], maxLength = 24) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

describe('previous checkpoint: quoted user messages', () => {
  it('finds the heading the regex finds', () => {
    const text = textOf([
      'All user messages',
      "ALL THE USER'S MESSAGES",
      'all the users messages',
      'All the user messages',
      'All user',
      '1',
      '12.',
      '.',
      '*',
      '**',
      ':',
      'x',
      ...WHITESPACE,
    ]);
    fc.assert(
      fc.property(text, (value) => {
        const match = USER_MESSAGES_HEADING.exec(value);
        expect(userMessagesHeading(value)).toEqual(
          match === null ? undefined : { index: match.index, end: match.index + match[0].length },
        );
      }),
      { numRuns: 20_000 },
    );
  });

  it("reads Claude Code's list of the person's messages", () => {
    const summary =
      'Summary:\n1. Intent: x\n\n6. **All User Messages:**\n   - "fix \\"a\\""\n   - "and b"\n7. Next';
    expect(readPreviousCheckpoint(summary).quotedPrompts).toEqual(['fix "a"', 'and b']);
  });

  it('reads hostile previous checkpoints in linear time: whitespace lines before a title, stars after', () => {
    // The regex took cubic time: 3,200 of each, 81 s.
    const n = 200_000;
    const text = `S${'\n\t'.repeat(n)}\nALL USER MESSAGES${'*'.repeat(n)}ALL USER MESSAGES\n- "a"`;
    expect(readPreviousCheckpoint(text).quotedPrompts).toBeUndefined();
    const heading = `${'\n\t'.repeat(n)}\nAll user messages${'*'.repeat(n)}:\n- "a"`;
    expect(readPreviousCheckpoint(heading).quotedPrompts).toEqual(['a']);
  });
});
