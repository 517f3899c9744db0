import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectFacts } from '../../../src/summarizer/extractive/collect-facts.js';
import { bulletText, REMAINING_HEADING } from '../../../src/summarizer/extractive/sentences.js';
import { assistantMessage, userMessage } from '../../../src/testing.js';

// The regexes replaced: the oracles, fast on short strings only.
const OLD_REMAINING_HEADING =
  /^\s*(?:#+\s*)?(?:\*\*)?(?:still (?:need(?:s|ed)? to|to do|left)|remaining(?: work| tasks?| steps?)?|to ?do|next steps?|left to do|what'?s left|not (?:yet )?done|open items)\b[^\n]{0,60}?:?\s*(?:\*\*)?:?\s*$/i;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/;

const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\u00a0', '\u2028', '\u2029', '\ufeff'];

function textOf(pieces: readonly string[], maxLength = 20) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

function remainingOf(text: string): readonly string[] {
  return collectFacts([userMessage('go'), assistantMessage(text)]).remaining;
}

describe('remaining items', () => {
  it('tells a "still to do" heading as the regex did', () => {
    // Runs longer than the 60 characters a heading may hold before its tail.
    const long = [' '.repeat(31), 'x'.repeat(31)];
    const text = textOf([
      'Remaining',
      'TODO',
      'next steps',
      '#',
      '**',
      '*',
      ':',
      'x',
      '1',
      ...long,
      ...WHITESPACE,
    ]);
    fc.assert(
      fc.property(text, (value) => {
        expect(REMAINING_HEADING.test(value)).toBe(OLD_REMAINING_HEADING.test(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads the bullet text the regex reads', () => {
    const text = textOf(['-', '*', '+', '1', '12', '.', ')', 'a', ...WHITESPACE]);
    fc.assert(
      fc.property(text, (value) => {
        expect(bulletText(value)).toBe(BULLET.exec(value)?.[1]);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads hostile assistant text in linear time: long runs of white space in headings and bullets', () => {
    // The regexes took quadratic time: a heading with 16,000 tabs, 35 s; a bullet with 16,000 spaces, 0.2 s.
    const n = 1_000_000;
    expect(remainingOf(`TODO${'\t'.repeat(n)}x\n- a`)).toEqual([]);
    expect(remainingOf(`Remaining:${' '.repeat(n)}:${' '.repeat(n)}x\n- a`)).toEqual([]);
    expect(remainingOf(`Remaining: ${' '.repeat(n)}\n- a`)).toEqual(['a']);
    expect(remainingOf(`Still need to:\n-${' '.repeat(n)}x\ry\n- b`)).toEqual([]);
    expect(remainingOf(`Still need to:\n-${' '.repeat(n)}x y\n- b`)).toEqual(['x y', 'b']);
  });
});
