import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { decodeDocument, encodeDocument } from '../../../src/codecs/registry.js';
import { compactWithRules } from '../../../src/engines/rules/create-rule-engine.js';
import { restoreTranscript } from '../../../src/engines/rules/restore-transcript.js';
import type { Message } from '../../../src/model/message.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { ROOT } from '../../support/cli.js';
import { assistant, deepFreeze, gainedViolations, system, user } from '../../transforms/support.js';
import { agentLoop } from './support.js';

function refsOf(messages: readonly Message[]): string[] {
  return [
    ...new Set(
      [...JSON.stringify(messages).matchAll(/ref=([\w.:-]+#[0-9a-f]{8})/g)].map(
        (match) => match[1] as string,
      ),
    ),
  ];
}

describe('restoreTranscript', () => {
  it('puts everything back: restore-all of a rules output is the input transcript itself', async () => {
    const input = deepFreeze({ messages: agentLoop(25) });
    const { transcript } = await compactWithRules(input);
    const back = restoreTranscript(transcript, input);
    expect(back.transcript).toBe(input);
    expect(back.unresolved).toEqual([]);
    expect(back.restored.length).toBe(refsOf(transcript.messages).length);
  });

  it('lists each restored reference once, in the order the compacted transcript holds them', async () => {
    const input = { messages: agentLoop(300) };
    const { transcript } = await compactWithRules(input);
    const refs = refsOf(transcript.messages);
    expect(refs.length).toBeGreaterThan(100);
    expect(restoreTranscript(transcript, input).restored).toEqual(refs);
  });

  it('puts back one element and its span exactly, leaving the rest compacted and the transcript valid', async () => {
    const input = { messages: [...agentLoop(12), user('and now?'), ...agentLoop(12).slice(2)] };
    const { transcript } = await compactWithRules(input, { protectLastNTurns: 3 });
    const ref = refsOf(transcript.messages)[0] as string;
    const back = restoreTranscript(transcript, input, { refs: [ref] });
    expect(back.spans).toBe(1);
    expect(back.restored).toContain(ref);
    expect(back.transcript.messages.length).toBeGreaterThan(transcript.messages.length);
    expect(back.transcript.messages.length).toBeLessThan(input.messages.length);
    const label = ref.split('#')[0] as string;
    expect(back.transcript.messages).toContain(input.messages[Number(label.slice(1))]);
    expect(gainedViolations(input.messages, back.transcript.messages)).toEqual([]);
    expect(restoreTranscript(transcript, input, { refs: [label] }).restored).toContain(ref);
  });

  it('reports references that match nothing', async () => {
    const input = { messages: agentLoop(12) };
    const { transcript } = await compactWithRules(input);
    const back = restoreTranscript(transcript, input, { refs: ['m999#00000000'] });
    expect(back.unresolved).toEqual(['m999#00000000']);
    expect(back.transcript.messages).toEqual(transcript.messages);
    const other = restoreTranscript(transcript, { messages: [user('unrelated')] });
    expect(other.unresolved.length).toBeGreaterThan(0);
  });

  it('finds references by content hash when the session log has shifted the messages', async () => {
    const input = { messages: agentLoop(12) };
    const { transcript } = await compactWithRules(input);
    const log: Transcript = { messages: [system('log preamble'), ...input.messages] };
    const back = restoreTranscript(transcript, log);
    expect(back.unresolved).toEqual([]);
    expect(back.transcript.messages).toEqual(input.messages);
  });

  it('keeps messages appended after the compaction when they are in the log too', async () => {
    const input = { messages: agentLoop(12) };
    const { transcript } = await compactWithRules(input);
    const extra = [user('one more thing'), assistant('sure')];
    const log = { messages: [...input.messages, ...extra] };
    const back = restoreTranscript({ messages: [...transcript.messages, ...extra] }, log);
    expect(back.transcript).toBe(log);
  });

  it('restores a compacted file read back from disk to the original, byte for byte', async () => {
    const text = readFileSync(join(ROOT, 'examples', 'coding-agent-session.openai.json'), 'utf8');
    const document = decodeDocument(text);
    const original = documentTranscripts(document)[0] as Transcript;
    const { transcript } = await compactWithRules(original, { protectLastNTurns: 2 });
    const written = encodeDocument({ ...document, entries: [{ kind: 'transcript', transcript }] });
    const reread = documentTranscripts(decodeDocument(written))[0] as Transcript;
    const back = restoreTranscript(reread, original, { stripCompactedMeta: true });
    expect(back.transcript).toBe(original);
    expect(
      encodeDocument({ ...document, entries: [{ kind: 'transcript', transcript: back.transcript }] }),
    ).toBe(text);
  });
});
