import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeClaudeCodeRecords, encodeClaudeCodeRecords } from '../../../src/codecs/claude-code/index.js';
import type { Message } from '../../../src/model/message.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { corpusFiles, FULL_CORPUS, shortName } from '../../support/corpus.js';
import { corpusRecords, messagesOnChain, rec, said } from './helpers.js';

/** Index of the first plain user message (a prompt, not a tool result) at or after `from`. */
function promptAt(messages: readonly Message[], from: number): number | undefined {
  for (let index = from; index < messages.length; index++) if (messages[index]?.role === 'user') return index;
  return undefined;
}

/** Removes whole turns from the middle of a transcript and puts a new user message where they were. */
function compactMiddle(transcript: Transcript): Transcript | undefined {
  const messages = transcript.messages;
  const start = promptAt(messages, Math.max(1, Math.floor(messages.length / 3)));
  const end =
    start === undefined
      ? undefined
      : promptAt(messages, Math.max(start + 1, Math.floor((2 * messages.length) / 3)));
  if (start === undefined || end === undefined) return undefined;
  const summary: Message = {
    role: 'user',
    parts: [{ type: 'text', text: `Summary of messages ${start}-${end - 1}.` }],
  };
  return { ...transcript, messages: [...messages.slice(0, start), summary, ...messages.slice(end)] };
}

function danglingParents(input: readonly unknown[], output: readonly unknown[]): string[] {
  const inFile = new Set(
    input.map((record) => rec(record)['uuid']).filter((uuid) => typeof uuid === 'string'),
  );
  const written = new Set(
    output.map((record) => rec(record)['uuid']).filter((uuid) => typeof uuid === 'string'),
  );
  return output.flatMap((record) => {
    const parent = rec(record)['parentUuid'];
    return typeof parent === 'string' && inFile.has(parent) && !written.has(parent) ? [parent] : [];
  });
}

describe('claude-code encode of a changed transcript', () => {
  const files = corpusFiles('claude-code');
  let tested = 0;
  for (const file of files) {
    const records = corpusRecords(file);
    const decoded = decodeClaudeCodeRecords(records).value;
    const changed = compactMiddle(decoded);
    if (changed === undefined) continue;
    tested++;
    it(`relinks the chain through exactly the kept messages (${shortName(file)})`, () => {
      const encoded = encodeClaudeCodeRecords(changed);
      const back = decodeClaudeCodeRecords(encoded).value;
      expect(back.messages.map(said)).toEqual(changed.messages.map(said));
      const keptIds = changed.messages.map((message) => message.id);
      expect(
        back.messages.map((message, index) => (keptIds[index] === undefined ? undefined : message.id)),
      ).toEqual(keptIds);
      const onChain = messagesOnChain(encoded, back);
      expect([...onChain].sort((a, b) => a - b)).toEqual(back.messages.map((_, index) => index));
      expect(danglingParents(records, encoded)).toEqual([]);
      const untouched = new Set(records);
      const kept = encoded.filter((record) => untouched.has(record)).length;
      expect(kept).toBeGreaterThan(0);
    });
  }
  it('found corpus files to change', () => {
    expect(tested).toBeGreaterThan(FULL_CORPUS ? 10 : 3);
  });
});

describe('claude-code encode after removing tool groups (property over the corpus)', () => {
  const transcripts = corpusFiles('claude-code')
    .map((file) => ({ file, records: corpusRecords(file) }))
    .map(({ file, records }) => ({ file, records, transcript: decodeClaudeCodeRecords(records).value }))
    .filter(({ transcript }) => transcript.messages.length >= 4);

  it('keeps the chain and the messages for any cut at group boundaries and any inserted messages', () => {
    if (transcripts.length === 0) return;
    fc.assert(
      fc.property(
        fc.nat(transcripts.length - 1),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.constantFrom<'user' | 'assistant'>('user', 'assistant'), { maxLength: 3 }),
        (pick, from, length, inserted) => {
          const { records, transcript } = transcripts[pick] as (typeof transcripts)[number];
          const messages = transcript.messages;
          const boundaries = messages.flatMap((message, index) => (message.role === 'tool' ? [] : [index]));
          const start = boundaries[Math.floor(from * boundaries.length)] ?? 0;
          const later = [...boundaries.filter((index) => index > start), messages.length];
          const end = later[Math.floor(length * (later.length - 1))] ?? messages.length;
          const fresh: Message[] = inserted.map((role, index) => ({
            role,
            parts: [{ type: 'text', text: `inserted ${index} (${role})` }],
          }));
          const changed: Transcript = {
            ...transcript,
            messages: [...messages.slice(0, start), ...fresh, ...messages.slice(end)],
          };
          const encoded = encodeClaudeCodeRecords(changed);
          const back = decodeClaudeCodeRecords(encoded).value;
          expect(back.messages.map(said)).toEqual(changed.messages.map(said));
          if (back.messages.length > 0) {
            const onChain = messagesOnChain(encoded, back);
            expect(onChain.size).toBe(back.messages.length);
          }
          expect(danglingParents(records, encoded)).toEqual([]);
          expect(encodeClaudeCodeRecords(changed)).toEqual(encoded);
        },
      ),
      { numRuns: 150 },
    );
  });
});
