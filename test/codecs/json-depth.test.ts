import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../src/codecs/json-depth.js';
import { decodeDocument, encodeDocument } from '../../src/codecs/registry.js';
import { runInProcess, temporaryDirectory } from '../support/cli.js';

/** The character-by-character scan the string-skipping one must agree with. */
function depthReference(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      depth++;
      if (depth > limit) return true;
    } else if (char === '}' || char === ']') depth--;
  }
  return false;
}

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const line = (text: string, extra = '1') =>
  JSON.stringify({ messages: [{ role: 'user', content: text }], extra: 0 }).replace('0}', `${extra}}`);

describe('JSON nested deeper than condense reads', () => {
  it('is measured in one pass, strings and escapes included', () => {
    expect(exceedsJsonDepth(deep(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(deep(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth(JSON.stringify({ text: '['.repeat(10_000) }))).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify({ text: '\\"[[[' }))).toBe(false);
    expect(exceedsJsonDepth(deep(200_000))).toBe(true);
  });

  it('agrees with a character-by-character scan on any text, valid JSON or not', () => {
    const soup = fc
      .array(fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ', ':', ','), { maxLength: 60 })
      .map((chars) => chars.join(''));
    const json = fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value));
    fc.assert(
      fc.property(fc.oneof(soup, json), fc.integer({ min: 0, max: 6 }), (text, limit) => {
        expect(exceedsJsonDepth(text, limit)).toBe(depthReference(text, limit));
      }),
      { numRuns: 5000 },
    );
  });

  it('is a clear error for a JSON document, not a stack overflow', () => {
    expect(() => decodeDocument(line('hi', deep(5_000)), { fileName: 'deep.json' })).toThrow(
      /nests JSON more than 512 levels deep/,
    );
  });

  it('is one reported line of a JSONL file: the other lines are read, and it is written back as it was', () => {
    const bad = line('two', deep(5_000));
    const text = `${line('one')}\n${bad}\n${line('three')}\n`;
    const document = decodeDocument(text);
    expect(document.issues).toMatchObject([{ code: 'too-deep', line: 2, severity: 'error' }]);
    expect(document.entries.filter((entry) => entry.kind === 'transcript')).toHaveLength(2);
    expect(encodeDocument(document)).toBe(text);
  });

  it('makes the command line say what is wrong and where', async () => {
    const dir = temporaryDirectory();
    try {
      const file = join(dir.path, 'deep.json');
      writeFileSync(file, line('hi', deep(5_000)));
      const run = await runInProcess(['inspect', file]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('nests JSON more than 512 levels deep');
      expect(run.stderr).not.toMatch(/internal error|call stack/i);
    } finally {
      dir.remove();
    }
  });
});
