import { describe, expect, it } from 'vitest';
import { decodeRollout, encodeRollout } from '../../../src/codecs/codex/index.js';
import { parseJsonLines } from '../../../src/codecs/document.js';
import { verifyResponsesInput } from '../../../src/codecs/openai-responses/index.js';
import { decodeDocument, encodeDocument } from '../../../src/codecs/registry.js';
import { compact } from '../../../src/engines/compressor/create-compressor.js';
import type { Message } from '../../../src/model/message.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { compactOrBest } from '../../engines/support.js';
import { readFixture } from '../../support/fixtures.js';

function lines(path: string): unknown[] {
  return parseJsonLines(readFixture(path)).values.map((entry) => entry.value);
}

function texts(transcript: Transcript): string[] {
  return transcript.messages.map(
    (message) =>
      `${message.role}:${message.parts
        .map((part) => (part.type === 'text' ? part.text.slice(0, 30) : part.type))
        .join('|')}`,
  );
}

/** What Codex would send on resume: the items of the context view, in order. */
function resumedItems(records: unknown[]): unknown[] {
  return decodeRollout(records, { view: 'context' }).reading.entries.map((entry) => entry.item);
}

describe('codex rollouts', () => {
  it('reads prompts that exist only as user_message events as user messages, once', () => {
    const { value } = decodeRollout(lines('codex/codemie-transcript-actions.rollout.jsonl'));
    const users = value.messages.filter((message) => message.role === 'user');
    expect(users).toHaveLength(2);
    expect(users[0]?.parts).toMatchObject([
      { type: 'text', text: expect.stringContaining('analyze trascript') },
    ]);
    const covered = decodeRollout(lines('codex/codemie-config-change.rollout.jsonl')).value;
    const prompts = covered.messages.filter(
      (message) =>
        message.role === 'user' &&
        message.parts.some((part) => part.type === 'text' && part.text === 'show tools'),
    );
    expect(prompts).toHaveLength(1);
  });

  it('puts the base instructions first and keeps developer messages as system messages', () => {
    const { value } = decodeRollout(lines('codex/codemie-config-change.rollout.jsonl'));
    expect(value.messages[0]?.role).toBe('system');
    expect(texts(value)[0]).toMatch(/^system:You are Codex/);
    expect(value.messages[1]?.role).toBe('system');
    expect(verifyTranscript(value, { provider: 'openai' })).toEqual([]);
  });

  it('full view: keeps the history across compactions and places each summary where it happened', () => {
    const { value, reading } = decodeRollout(lines('codex/derived-compactions.rollout.jsonl'));
    expect(reading.boundaries.map((boundary) => boundary.record)).toEqual([12, 16]);
    expect(reading.boundaries.map((boundary) => boundary.replacementItems)).toEqual([2, undefined]);
    const summaries = value.messages.filter((message) =>
      message.parts.some(
        (part) => part.type === 'text' && /Progress so far|governance section owner/.test(part.text),
      ),
    );
    expect(summaries).toHaveLength(2);
    expect(value.messages.some((message) => message.parts.some((part) => part.type === 'tool-call'))).toBe(
      true,
    );
    expect(verifyTranscript(value)).toEqual([]);
  });

  it('context view: starts from the newest replacement history, as Codex resumes', () => {
    const { value, reading, messageOfEntry } = decodeRollout(
      lines('codex/derived-compactions.rollout.jsonl'),
      {
        view: 'context',
      },
    );
    expect(value.messages.some((message) => message.parts.some((part) => part.type === 'tool-call'))).toBe(
      false,
    );
    expect(texts(value).at(-1)).toMatch(/^assistant:- \[ \] Draft/);
    expect(reading.boundaries).toHaveLength(1);
    // The early compaction keeps the person's prompts, then its summary.
    const at = messageOfEntry[reading.boundaries[0]?.entry ?? -1] ?? -1;
    expect(texts(value)[at]).toMatch(/^user:The user asked who drafts/);
    expect(
      texts(value)
        .slice(0, at)
        .every((line) => line.startsWith('user:') || line.startsWith('system:')),
    ).toBe(true);
  });

  it('applies a rollback: the rolled-back turn is not in the conversation', () => {
    const { value, reading } = decodeRollout(lines('codex/derived-rollback.rollout.jsonl'));
    expect(reading.rollbacks).toHaveLength(1);
    expect(reading.rollbacks[0]?.removed.length).toBeGreaterThan(3);
    const all = texts(value).join('\n');
    expect(all).not.toContain("let's update the defailt");
    expect(all).toContain('Only list the MCP tools');
    expect(verifyTranscript(value)).toEqual([]);
  });

  it('reads the early Rust format (bare items, state lines) and writes changes in it', () => {
    const records = lines('codex/derived-legacy.rollout.jsonl');
    const { value } = decodeRollout(records);
    expect(value.messages.map((message) => message.role)).toEqual([
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    const dropped: Transcript = { ...value, messages: value.messages.filter((_, index) => index !== 1) };
    const out = encodeRollout(dropped) as Record<string, unknown>[];
    expect(out[0]).toBe(records[0]);
    expect(out.every((record) => !('payload' in record))).toBe(true);
    expect(decodeRollout(out).value.messages).toHaveLength(6);
  });

  it("reads the first CLI's JSON document and writes a changed one in the same shape", () => {
    const document = decodeDocument(readFixture('codex/derived-typescript-cli.rollout.json'));
    expect(document.format).toBe('codex');
    const entry = document.entries[0];
    if (entry?.kind !== 'transcript') throw new Error('no transcript');
    const transcript = entry.transcript;
    expect(transcript.messages[0]?.role).toBe('user');
    const changed = { ...transcript, messages: transcript.messages.slice(0, 2) };
    const [written] = encodeRollout(changed) as [{ session: unknown; items: unknown[] }];
    expect(Object.keys(written)).toEqual(['session', 'items']);
    expect(written.items).toHaveLength(1 + transcript.messages[1]!.parts.length);
    expect(JSON.parse(encodeDocument(document))).toEqual(
      JSON.parse(readFixture('codex/derived-typescript-cli.rollout.json')),
    );
  });

  it('turns a transcript of another format into a rollout Codex can resume', () => {
    const transcript: Transcript = {
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be careful.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Run the tests.' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 't1', name: 'shell', arguments: '{"cmd":"npm test"}' }],
        },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', callId: 't1', content: [{ type: 'text', text: 'ok' }] }],
        },
      ],
    };
    const out = encodeRollout(transcript) as { type: string; payload: Record<string, unknown> }[];
    expect(out[0]).toMatchObject({
      type: 'session_meta',
      payload: { base_instructions: { text: 'Be careful.' } },
    });
    expect(out.slice(1).every((record) => record.type === 'response_item')).toBe(true);
    const back = decodeRollout(out).value;
    expect(texts(back)).toEqual(texts(transcript));
  });

  describe.each([
    'codex/codemie-config-change.rollout.jsonl',
    'codex/codemie-transcript-actions.rollout.jsonl',
    'codex/derived-compactions.rollout.jsonl',
    'codex/derived-rollback.rollout.jsonl',
  ])('compacting %s', (path) => {
    it('writes a rollout whose resumed conversation is the compacted transcript, with kept lines untouched', async () => {
      const text = readFixture(path);
      const document = decodeDocument(text);
      const entry = document.entries[0];
      if (entry?.kind !== 'transcript') throw new Error('no transcript');
      // The system prompt and latest request of some of these alone exceed so small a window: the engine's
      // smallest result is what gets written then.
      const { transcript, report } = await compactOrBest(() =>
        compact(entry.transcript, { contextLength: 4_000, force: true }),
      );
      expect(report.madeProgress).toBe(true);
      const written = encodeDocument({ ...document, entries: [{ kind: 'transcript', transcript }] });
      const originalLines = new Set(text.split('\n'));
      const records = parseJsonLines(written).values;
      const reread = decodeRollout(records.map((record) => record.value));
      expect(reread.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
      expect(verifyTranscript(reread.value, { provider: 'openai' })).toEqual([]);
      expect(verifyResponsesInput(resumedItems(records.map((record) => record.value)))).toEqual([]);
      const full = decodeRollout(records.map((record) => record.value)).value;
      const resumed = decodeRollout(
        records.map((record) => record.value),
        { view: 'context' },
      ).value;
      expect(texts(resumed)).toEqual(texts(full));
      const parts = (messages: readonly Message[]) =>
        messages.flatMap((message) => message.parts.map((part) => part.type));
      expect(parts(full.messages)).toEqual(parts(transcript.messages));
      for (const record of records) {
        const line = record.text;
        const value = record.value as { type?: string; payload?: { type?: string } };
        if (value.type === 'compacted') throw new Error('a compaction survived the rewrite');
        if (!originalLines.has(line))
          expect(value.type ?? value.payload?.type ?? 'item').toMatch(
            /response_item|message|reasoning|function_call/,
          );
      }
    });
  });
});
