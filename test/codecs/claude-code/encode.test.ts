import { describe, expect, it } from 'vitest';
import { decodeClaudeCodeRecords, encodeClaudeCodeRecords } from '../../../src/codecs/claude-code/index.js';
import { decodeDocument } from '../../../src/codecs/registry.js';
import type { Message } from '../../../src/model/message.js';
import type { Part } from '../../../src/model/part.js';
import { corpusFiles, readCorpusFile } from '../../support/corpus.js';
import { rec } from './helpers.js';

const envelope = (uuid: string, parentUuid: string | null, timestamp: string) => ({
  parentUuid,
  isSidechain: false,
  userType: 'external',
  cwd: '/w',
  sessionId: 's-1',
  version: '2.1.0',
  gitBranch: 'main',
  uuid,
  timestamp,
});
const prompt = (uuid: string, parent: string | null, text: string) => ({
  ...envelope(uuid, parent, `2026-01-01T00:00:0${uuid.length}.000Z`),
  type: 'user',
  message: { role: 'user', content: text },
});
const call = (uuid: string, parent: string, id: string, tool: string) => ({
  ...envelope(uuid, parent, '2026-01-01T00:01:00.000Z'),
  type: 'assistant',
  message: {
    id: `msg_${uuid}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: [{ type: 'tool_use', id, name: tool, input: {} }],
  },
  requestId: `req_${uuid}`,
});
const answer = (uuid: string, parent: string, id: string) => ({
  ...envelope(uuid, parent, '2026-01-01T00:02:00.000Z'),
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'done' }] },
  toolUseResult: { stdout: 'done' },
});

const session = [
  { type: 'summary', summary: 'A title', leafUuid: 'elsewhere' },
  prompt('p1', null, 'first task'),
  call('a1', 'p1', 't1', 'Bash'),
  {
    ...envelope('h1', 'a1', '2026-01-01T00:01:01.000Z'),
    type: 'progress',
    data: { type: 'hook_progress' },
    toolUseID: 't1',
  },
  answer('r1', 'h1', 't1'),
  { type: 'file-history-snapshot', messageId: 'p2', snapshot: {}, isSnapshotUpdate: false },
  prompt('p2', 'r1', 'second task'),
  call('a2', 'p2', 't2', 'Read'),
  answer('r2', 'a2', 't2'),
  {
    ...envelope('s1', 'r2', '2026-01-01T00:03:00.000Z'),
    type: 'system',
    subtype: 'turn_duration',
    durationMs: 5,
  },
];

describe('claude-code encode of changed transcripts', () => {
  it('drops side records of removed messages, relinks the chain and copies the envelope into new records', () => {
    const { value } = decodeClaudeCodeRecords(session);
    const summary: Message = { role: 'user', parts: [{ type: 'text', text: 'Earlier: ran Bash.' }] };
    const changed = { ...value, messages: [summary, ...value.messages.slice(3)] };
    const out = encodeClaudeCodeRecords(changed) as Record<string, any>[];
    expect(out.map((record) => record['uuid'] ?? record['type'])).toEqual([
      'summary',
      'file-history-snapshot',
      out[2]?.['uuid'],
      'p2',
      'a2',
      'r2',
      's1',
    ]);
    const created = out[2] as Record<string, any>;
    expect(created).toMatchObject({
      parentUuid: null,
      sessionId: 's-1',
      cwd: '/w',
      version: '2.1.0',
      gitBranch: 'main',
      type: 'user',
      message: { role: 'user', content: 'Earlier: ran Bash.' },
      timestamp: rec(session[6])['timestamp'],
    });
    expect(out[3]?.['parentUuid']).toBe(created['uuid']);
    expect(out[4]).toBe(session[7]);
    expect(out[6]).toBe(session[9]);
    expect(encodeClaudeCodeRecords(changed)).toEqual(out);
  });

  it('keeps the untouched records of a changed merged response as the very objects read', () => {
    const records = [
      prompt('p1', null, 'go'),
      {
        ...call('a1', 'p1', 't1', 'Bash'),
        message: {
          ...call('a1', 'p1', 't1', 'Bash').message,
          id: 'msg_same',
          content: [{ type: 'text', text: 'Running.' }],
        },
      },
      {
        ...call('a2', 'a1', 't1', 'Bash'),
        message: { ...call('a2', 'a1', 't1', 'Bash').message, id: 'msg_same' },
      },
      answer('r1', 'a2', 't1'),
    ];
    const { value } = decodeClaudeCodeRecords(records);
    const target = value.messages[1] as Message;
    expect(target.parts).toHaveLength(2);
    const parts = target.parts.map(
      (part): Part => (part.type === 'text' ? { ...part, text: 'Running now.' } : part),
    );
    const out = encodeClaudeCodeRecords({
      ...value,
      messages: value.messages.map((m) => (m === target ? { ...target, parts } : m)),
    });
    expect(out[2]).toBe(records[2]);
    expect(rec(out[1])['message']['content']).toEqual([{ type: 'text', text: 'Running now.' }]);
    expect(rec(out[1])['uuid']).toBe('a1');
  });

  it('detects every corpus session file as claude-code', () => {
    for (const file of corpusFiles('claude-code').slice(0, 30)) {
      expect(decodeDocument(readCorpusFile(file)).format).toBe('claude-code');
    }
  });
});
