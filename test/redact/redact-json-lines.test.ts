import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeDocument, encodeDocument, readJsonLines } from '../../src/codecs/registry.js';
import type { DocumentFinding } from '../../src/redact/index.js';
import { redactDocument } from '../../src/redact/index.js';
import { redactJsonLines } from '../../src/redact/redact-json-lines.js';
import { readFixture } from '../support/fixtures.js';
import { generateRedactionDataset } from './dataset.js';
import { FAKE } from './fixtures.js';

/** What `condense redact` wrote before it read JSONL a line at a time: the whole file decoded, redacted, encoded. */
function whole(text: string, allow: readonly string[] = []) {
  const result = redactDocument(decodeDocument(text), { allow });
  return { text: encodeDocument(result.document), findings: result.findings };
}

function streamed(text: string, allow: readonly string[] = []) {
  const reader = readJsonLines(text);
  if (reader === undefined) return undefined;
  const findings: DocumentFinding[] = [];
  const out = [...redactJsonLines(reader, findings, { allow })].join('');
  return { text: out, findings };
}

const message = (role: string, content: string) => ({ role, content });
const transcript = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ messages: [message('user', 'run it'), message('tool', content)], ...extra });

/** Lines of every kind a JSONL dataset holds: clean, with secrets, spaced, broken, blank, too deep, CRLF. */
const LINES = [
  transcript('all tests passed'),
  transcript(`export OPENAI_API_KEY=${FAKE.openai}`),
  transcript(`{"password": "${FAKE.githubClassic}"}`, { id: 7 }),
  `{ "messages" : [ { "role": "user", "content": "token=${FAKE.gitlab}" } ] }`,
  `{"messages": [{"role": "user", "content": "spaced  out"}]}   `,
  `{"messages": [{"role": "user", "content": "cut short ${FAKE.openai}`,
  'not json at all, but Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345',
  '',
  '   ',
  `{"messages": [], "deep": ${'['.repeat(600)}${']'.repeat(600)}}`,
  `${transcript('crlf line')}\r`,
  '[{"role": "user", "content": "an array envelope"}]',
];

describe('a JSONL file redacted a line at a time', () => {
  it('writes the bytes and reports the findings of the whole-file path, whatever its lines', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINES), { minLength: 2, maxLength: 12 }),
        fc.boolean(),
        (lines, end) => {
          const text = lines.join('\n') + (end ? '\n' : '');
          let expected: ReturnType<typeof whole>;
          try {
            expected = whole(text);
          } catch {
            return;
          }
          const got = streamed(text);
          if (got === undefined) return;
          expect(got.text).toBe(expected.text);
          expect(got.findings).toEqual(expected.findings);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('agrees with the whole-file path on a generated agent dataset, allowed values included', () => {
    const text = generateRedactionDataset(600_000, 11);
    const expected = whole(text, [FAKE.openai]);
    const got = streamed(text, [FAKE.openai]);
    expect(got?.findings.length).toBeGreaterThan(0);
    expect(got).toEqual(expected);
  });

  it('is not used for one JSON document, a file that is one transcript, or text without a readable line', () => {
    expect(readJsonLines(transcript('one'))).toBeUndefined();
    expect(readJsonLines(readFixture('claude-code/compacted-session.jsonl'))).toBeUndefined();
    expect(readJsonLines('nothing\nreadable\n')).toBeUndefined();
    expect(readJsonLines(`${transcript('a')}\n${transcript('b')}\n`)?.format).toBe('openai');
  });
});
