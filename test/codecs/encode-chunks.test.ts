import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../src/codecs/document.js';
import { decodeDocument, encodeDocument, encodeDocumentChunks } from '../../src/codecs/registry.js';
import { fixtureFiles } from '../support/fixtures.js';

const joined = (document: TranscriptDocument) => [...encodeDocumentChunks(document)].join('');

describe('a document encoded in chunks', () => {
  it('is exactly the document encoded whole, for every fixture file and layout', () => {
    const files = ['claude-code', 'codex', 'convert', 'openai-responses'].flatMap(fixtureFiles);
    const layouts = new Set<string>();
    for (const file of files) {
      if (file.endsWith('.traj')) continue;
      const document = decodeDocument(readFileSync(file, 'utf8'), { fileName: file });
      layouts.add(document.layout);
      expect(joined(document), file).toBe(encodeDocument(document));
    }
    expect([...layouts].sort()).toEqual(['json', 'json-array', 'jsonl', 'records']);
  });

  it('cuts a long JSONL file between lines, unreadable lines and blank lines as whole encoding has them', () => {
    const line = (index: number) =>
      JSON.stringify({ messages: [{ role: 'user', content: `${index} ${'x'.repeat(index * 10)}` }] });
    const lines = Array.from({ length: 400 }, (_, index) => (index === 150 ? '{"messages": [' : line(index)));
    const text = `${lines.slice(0, 200).join('\n')}\n\n${lines.slice(200).join('\n')}\n`;
    const document = decodeDocument(text, { format: 'openai' });
    const chunks = [...encodeDocumentChunks(document)];
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.endsWith('\n')).toBe(true);
    expect(chunks.join('')).toBe(encodeDocument(document));
  });

  it('is one chunk for a JSON array of transcripts', () => {
    const transcript = { messages: [{ role: 'user', content: 'hi' }] };
    const document = decodeDocument(JSON.stringify([transcript, transcript], null, 2), { format: 'openai' });
    expect(document.layout).toBe('json-array');
    expect([...encodeDocumentChunks(document)]).toEqual([encodeDocument(document)]);
  });
});
