import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removeReasoningBlocks } from '../../src/summarizer/reasoning-blocks.js';
import { stripReasoningTags } from '../../src/summarizer/serialize-turns.js';

const REGEX = /<(think|thinking|reasoning|thought|REASONING_SCRATCHPAD)(?:\s[^>]*)?>[\s\S]*?<\/\1>/gi;
const PIECES = [
  '<think>',
  '<Think a="1">',
  '<thinking>',
  '<REASONING_scratchpad\t>',
  '<thought\n>',
  '</reasoning>',
  '<think',
  '<THINK',
  '</think>',
  '</Think>',
  '<thinking',
  '</thinking>',
  'ing',
  '<reasoning',
  '_SCRATCHPAD',
  '</reasoning_scratchpad>',
  '<thought>',
  '</thought>',
  '<',
  '</',
  '>',
  ' ',
  '\n',
  '\u00a0',
  'x=1',
  'a',
  '\u017f',
  '\u212a',
  '\u0131',
];

describe('reasoning blocks', () => {
  it('are removed exactly as the regex removes them', () => {
    const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(removeReasoningBlocks(value)).toBe(value.replace(REGEX, ''));
      }),
      { numRuns: 5000 },
    );
    expect(removeReasoningBlocks('a<Think step="1">x</THINK>b<thinking>y</thinking>')).toBe('ab');
  });

  it('are removed in one pass from a text of 200,000 unclosed openings (the regex searched to the end for each)', () => {
    const count = 200_000;
    expect(removeReasoningBlocks(`${'<think> a '.repeat(count)}end`)).toBe(
      `${'<think> a '.repeat(count)}end`,
    );
    expect(removeReasoningBlocks(`${'<think a '.repeat(count)}end`)).toBe(`${'<think a '.repeat(count)}end`);
    expect(stripReasoningTags(`answer ${'<reasoning x'.repeat(count)}`)).toBe(
      `answer ${'<reasoning x'.repeat(count)}`,
    );
  });
});
