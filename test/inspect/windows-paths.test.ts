import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPaths, windowsPaths } from '../../src/inspect/artifact-patterns.js';

// The pattern `windowsPaths` replaced: the oracle. Its loop over segments overflowed V8's regex stack (RangeError)
// on a path of millions of segments, which lost the artifacts of the whole message.
const OLD_WINDOWS_PATH = /\b[A-Za-z]:\\(?:[\w.\-@+$ ]+\\)*[\w.\-@+$]+/g;

describe('Windows paths', () => {
  it('are the matches of the old regex', () => {
    const text = fc
      .array(
        fc.constantFrom(
          'C:\\',
          'd:',
          ':',
          'x',
          'ab',
          ' ',
          '\\',
          '\\\\',
          '.',
          '-',
          '$',
          '/',
          '"',
          '\n',
          'é',
          '\u00a0',
        ),
        {
          maxLength: 24,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(windowsPaths(value)).toEqual([...value.matchAll(OLD_WINDOWS_PATH)].map((match) => match[0]));
      }),
      { numRuns: 10_000 },
    );
  });

  it('are found in a text of millions of segments', () => {
    const path = `C:\\${'a\\'.repeat(6_000_000)}x`;
    expect(findPaths(`see ${path} there`)).toEqual([]);
    expect(windowsPaths(`C:\\${'a \\'.repeat(6_000_000)} x`)).toEqual([`C:\\${'a \\'.repeat(5_999_999)}a`]);
  });
});
