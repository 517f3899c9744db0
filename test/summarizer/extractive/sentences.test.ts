import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectFacts } from '../../../src/summarizer/extractive/collect-facts.js';
import {
  bulletText,
  clip,
  decisionsAmong,
  flatten,
  flattenUpTo,
  intentsAmong,
  pushUnique,
  REMAINING_HEADING,
  splitSentences,
} from '../../../src/summarizer/extractive/sentences.js';
import { assistantMessage, userMessage } from '../../../src/testing.js';
import { hostileText } from './fact-generators.js';
import * as reference from './sentences-reference.js';

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

describe('sentences and clipping', () => {
  it('split prose as the regex replaces and splits did', () => {
    fc.assert(
      fc.property(hostileText, (value) => {
        expect(splitSentences(value)).toEqual(reference.splitSentences(value));
        const sentences = splitSentences(value);
        expect(intentsAmong(sentences)).toEqual(reference.intentSentences(value));
        expect(decisionsAmong(sentences)).toEqual(reference.decisionsAmong(reference.splitSentences(value)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('flatten white space as `replace(/\\s+/g, " ").trim()` did, and clip as before', () => {
    const limits = fc.constantFrom(0, 1, 2, 12, 60, 63, 64, 65, 120, 300);
    fc.assert(
      fc.property(hostileText, hostileText, limits, (head, tail, limit) => {
        for (const text of [head, `${head}${tail}`, `${head}${' \n'.repeat(70)}${tail}`]) {
          const flat = text.replace(/\s+/g, ' ').trim();
          expect(flatten(text)).toBe(flat);
          expect(flattenUpTo(text, limit)).toBe(flat.length > limit ? flat.slice(0, limit + 1) : flat);
          expect(clip(text, limit)).toBe(reference.clip(text, limit));
        }
      }),
      { numRuns: 10_000 },
    );
  });

  it('keep the items pushUnique kept', () => {
    fc.assert(
      fc.property(fc.array(hostileText, { maxLength: 8 }), (items) => {
        const kept: string[] = [];
        const expected: string[] = [];
        pushUnique(kept, items, new Set());
        reference.pushUnique(expected, items, new Set());
        expect(kept).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('read long prose and a megabyte value in linear time', () => {
    const prose = 'It works. Then it stops!  (Maybe) not.\n'.repeat(50_000);
    const started = performance.now();
    expect(splitSentences(prose)).toHaveLength(100_000);
    expect(clip(`${'a  \n'.repeat(1_000_000)}`, 60)).toBe(reference.clip(`${'a  \n'.repeat(1_000)}`, 60));
    const run = `Done.${' '.repeat(1_000_000)}a`;
    // Compared as a boolean: a failing diff of megabyte strings takes minutes to print.
    expect(splitSentences(run)[0] === run).toBe(true);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
