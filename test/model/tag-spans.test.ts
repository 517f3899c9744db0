import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstTagBody, tagSpans, withoutTagSpans } from '../../src/model/tag-spans.js';

const TAGS = ['think', 'tool_call'];
const REGEX = /<(think|tool_call)>([\s\S]*?)<\/\1>/g;
const PIECES = [
  '<think>',
  '</think>',
  '<tool_call>',
  '</tool_call>',
  '<thin',
  'k>',
  '</',
  '<',
  '>',
  'a',
  ' ',
  '\n',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

describe('tag spans', () => {
  it('are exactly what the global regex matches, in order', () => {
    fc.assert(
      fc.property(text, (value) => {
        const expected = [...value.matchAll(REGEX)].map((match) => ({
          tag: match[1],
          start: match.index,
          end: match.index + match[0].length,
          bodyStart: match.index + (match[1] as string).length + 2,
          bodyEnd: match.index + (match[1] as string).length + 2 + (match[2] as string).length,
        }));
        expect(tagSpans(value, TAGS)).toEqual(expected);
        expect(withoutTagSpans(value, TAGS)).toBe(value.replace(REGEX, ''));
        expect(firstTagBody(value, 'think')).toBe(/<think>([\s\S]*?)<\/think>/.exec(value)?.[1]);
      }),
      { numRuns: 2000 },
    );
  });

  it('are found in one pass over 200,000 unclosed tags (the regex searched to the end for each)', () => {
    const count = 200_000;
    const value = `${'<tool_call> x '.repeat(count)}<think>last</think>`;
    const start = value.length - '<think>last</think>'.length;
    expect(tagSpans(value, TAGS)).toEqual([
      { tag: 'think', start, end: value.length, bodyStart: start + 7, bodyEnd: start + 11 },
    ]);
    expect(withoutTagSpans(value, TAGS)).toBe(value.slice(0, start));
    expect(firstTagBody('<think>'.repeat(count), 'think')).toBeUndefined();
  });
});
