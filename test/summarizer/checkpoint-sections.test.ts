import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readPreviousCheckpoint } from '../../src/summarizer/extractive/previous-checkpoint.js';
import { parseSections } from '../../src/summarizer/index.js';
import { headingTitle } from '../../src/summarizer/prompts/checkpoint-template.js';

// The regex headingTitle replaces: the oracle, fast on short strings only.
const HEADING = /^#{1,3}\s+(.+?)\s*:?\s*$/;

const WHITESPACE = [' ', '\t', '\r', '\v', '\f', '\u00a0', '\u2028', '\u2029', '\ufeff', '\u3000'];

function textOf(pieces: readonly string[], maxLength = 16) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

describe('parseSections headings', () => {
  it('reads the heading title the regex reads', () => {
    const line = fc
      .tuple(fc.constantFrom('', '#', '##', '###', '####'), textOf(['#', ':', 'a', 'Files', ...WHITESPACE]))
      .map(([hashes, rest]) => hashes + rest);
    fc.assert(
      fc.property(line, (value) => {
        expect(headingTitle(value)).toBe(HEADING.exec(value)?.[1]);
      }),
      { numRuns: 20_000 },
    );
    expect(headingTitle('## Files Changed:')).toBe('Files Changed');
    expect(headingTitle('### a : ')).toBe('a');
    expect(headingTitle('#  ')).toBe(' ');
    expect(headingTitle('#### a')).toBeUndefined();
  });

  it('reads hostile previous checkpoints in linear time: tabs around a colon in a heading', () => {
    // The regex took fourth-degree time: 1,600 tabs, seconds; 3,200, minutes.
    const tabs = '\t'.repeat(200_000);
    const previous = readPreviousCheckpoint(`## Files${tabs}:${tabs}x\n- a`);
    expect(previous.foreign).toBe(`## Files${tabs}:${tabs}x\n- a`);
    const heading = readPreviousCheckpoint(`## Files Changed${tabs}:${tabs}\n- a.ts`);
    expect([...heading.sections]).toEqual([['filesChanged', ['- a.ts']]]);
  });

  it('keeps the text under a heading named like an Object property, as under any unknown heading', () => {
    for (const name of ['Constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const parsed = parseSections(`intro\n## ${name}\nkept line\n## Files Changed\n- a.ts`);
      expect(parsed.preamble).toBe(`intro\n## ${name}\nkept line`);
      expect([...parsed.sections.keys()]).toEqual(['filesChanged']);
    }
    const later = parseSections('## Key Decisions\n- d\n### constructor:\n- also kept');
    expect([...later.sections]).toEqual([['keyDecisions', '- d\n### constructor:\n- also kept']]);
    const previous = readPreviousCheckpoint('## Constructor\nkept\n## Files Changed\n- a.ts');
    expect(previous.foreign).toBe('## Constructor\nkept');
    expect([...previous.sections]).toEqual([['filesChanged', ['- a.ts']]]);
  });
});
