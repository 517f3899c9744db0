import { describe, expect, it } from 'vitest';
import { readPreviousCheckpoint } from '../../src/summarizer/extractive/previous-checkpoint.js';
import { parseSections } from '../../src/summarizer/index.js';

describe('parseSections headings', () => {
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
