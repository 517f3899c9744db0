import { describe, expect, it } from 'vitest';
import { decodeClaudeCodeRecords, encodeClaudeCodeRecords } from '../../../src/codecs/claude-code/index.js';
import { withParts } from '../../../src/model/message-helpers.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { loadSession } from '../../../src/session/load-session.js';
import { said } from './helpers.js';

const SESSION = '5e55e55e-0000-4000-8000-00000000000c';

function id(name: string): string {
  return `cccccccc-0000-4000-8000-${name.padStart(12, '0')}`;
}

function base(name: string, parent: string | null): Record<string, unknown> {
  return {
    parentUuid: parent === null ? null : id(parent),
    isSidechain: false,
    sessionId: SESSION,
    uuid: id(name),
  };
}

function user(name: string, parent: string | null, content: unknown): object {
  return { ...base(name, parent), type: 'user', message: { role: 'user', content } };
}

function block(name: string, parent: string, response: string, content: unknown[]): object {
  return { ...base(name, parent), type: 'assistant', message: { id: response, role: 'assistant', content } };
}

function progress(name: string, parent: string): object {
  return {
    ...base(name, parent),
    type: 'progress',
    data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
  };
}

function replayOf(records: readonly unknown[]) {
  const text = `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
  return loadSession(Buffer.from(text));
}

describe('claude-code encode links records so the written chain is the transcript', () => {
  it('relinks progress records under a dropped block to the block before it, never to a later one (no cycle)', () => {
    // text → thinking → progress ×2 → tool_use: the progress records hang off the thinking block.
    const records = [
      user('1', null, 'Read it'),
      block('10', '1', 'msg_a', [{ type: 'text', text: 'Reading.' }]),
      block('11', '10', 'msg_a', [{ type: 'thinking', thinking: 'which file?', signature: 's' }]),
      progress('12', '11'),
      progress('13', '12'),
      block('14', '13', 'msg_a', [
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } },
      ]),
      user('20', '14', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'contents' }]),
      block('30', '20', 'msg_b', [{ type: 'text', text: 'Done.' }]),
    ];
    const transcript = decodeClaudeCodeRecords(records).value;
    // Drop the thinking: its record is no longer written.
    const messages = transcript.messages.map((message) =>
      message.role === 'assistant' && message.parts.some((part) => part.type === 'reasoning')
        ? withParts(
            message,
            message.parts.filter((part) => part.type !== 'reasoning'),
          )
        : message,
    );
    const changed: Transcript = { ...transcript, messages };
    const written = encodeClaudeCodeRecords(changed) as Record<string, unknown>[];
    const replay = replayOf(written);
    expect(replay.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(replay.transcript.messages.map(said)).toEqual(changed.messages.map(said));
    const firstProgress = written.find((record) => record['uuid'] === id('12'));
    expect(firstProgress?.['parentUuid']).toBe(id('10'));
  });

  it('leaves a dead branch where it was when the active branch changes', () => {
    const records = [
      user('1', null, 'First question'),
      block('2', '1', 'msg_a', [{ type: 'text', text: 'First answer' }]),
      user('3', '2', 'Abandoned question'),
      block('4', '3', 'msg_b', [{ type: 'text', text: 'Abandoned answer' }]),
      user('5', '2', 'Rewritten question'),
      block('6', '5', 'msg_c', [{ type: 'text', text: 'Final answer' }]),
    ];
    const transcript = decodeClaudeCodeRecords(records).value;
    expect(transcript.messages.map((message) => message.id)).toEqual([id('1'), id('2'), id('5'), id('6')]);
    const changed: Transcript = {
      ...transcript,
      messages: transcript.messages.map((message, index) =>
        index === 3 ? withParts(message, [{ type: 'text', text: 'Final answer, shortened' }]) : message,
      ),
    };
    const written = encodeClaudeCodeRecords(changed);
    const replay = replayOf(written);
    expect(replay.transcript.messages.map(said)).toEqual(changed.messages.map(said));
    expect(replay.deadBranches.records).toBe(2);
    expect(written.filter((record) => JSON.stringify(record).includes('Abandoned'))).toEqual([
      records[2],
      records[3],
    ]);
  });

  it('starts the context view at a user record led by a compact boundary, flagged or not', () => {
    const boundary = (n: string, parent: string | null) => ({
      ...base(n, parent),
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
    });
    const notice = { ...base('7', '6'), type: 'system', subtype: 'informational', content: 'note' };
    const records = [
      user('1', null, 'Old request'),
      block('2', '1', 'msg_a', [{ type: 'text', text: 'Old answer' }]),
      boundary('3', null),
      user('4', '3', 'Summary of the old stretch, without the flag'),
      user('5', '4', 'Second request'),
      block('6', '5', 'msg_b', [{ type: 'text', text: 'Second answer' }]),
      notice,
      user('8', '7', 'Third request, after a notice that is no boundary'),
    ];
    const context = decodeClaudeCodeRecords(records, { view: 'context' }).value;
    expect(context.messages.map((message) => message.id)).toEqual([id('4'), id('5'), id('6'), id('8')]);
  });

  it('puts a new message that replaces the summary after a compaction under its boundary, keeping the history before it', () => {
    const boundary = {
      ...base('3', null),
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      logicalParentUuid: id('2'),
    };
    const records = [
      user('1', null, 'Old request'),
      block('2', '1', 'msg_a', [{ type: 'text', text: 'Old answer' }]),
      boundary,
      { ...user('4', '3', 'Summary of the old stretch'), isCompactSummary: true },
      user('5', '4', 'New request'),
      block('6', '5', 'msg_b', [{ type: 'text', text: 'New answer' }]),
    ];
    const full = decodeClaudeCodeRecords(records).value;
    const context = decodeClaudeCodeRecords(records, { view: 'context' }).value;
    expect(context.messages.map((message) => message.id)).toEqual([id('4'), id('5'), id('6')]);
    // A compaction of the context: the summary replaced by a new checkpoint message.
    const checkpoint = { role: 'user' as const, parts: [{ type: 'text' as const, text: 'Checkpoint' }] };
    const compacted: Transcript = { ...context, messages: [checkpoint, ...context.messages.slice(1)] };
    const written = encodeClaudeCodeRecords(compacted);
    const replay = replayOf(written);
    expect(replay.transcript.messages.map(said)).toEqual([
      ...full.messages.slice(0, 2).map(said),
      said(checkpoint),
      ...context.messages.slice(1).map(said),
    ]);
    expect(decodeClaudeCodeRecords(written, { view: 'context' }).value.messages.map(said)).toEqual(
      compacted.messages.map(said),
    );
    expect(written.slice(0, 3)).toEqual(records.slice(0, 3));
  });
});
