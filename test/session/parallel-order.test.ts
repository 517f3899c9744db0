import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import type { Message } from '../../src/model/message.js';
import { loadSession } from '../../src/session/load-session.js';
import { comparable, jsonl } from './helpers.js';

const SESSION = '5e55e55e-0000-4000-8000-000000000001';

function id(name: string): string {
  return `bbbbbbbb-0000-4000-8000-${name.padStart(12, '0')}`;
}

function record(name: string, parent: string | null, type: 'user' | 'assistant', content: unknown): object {
  // Records 10–13 are the blocks of one response; 30 is the next one.
  return {
    parentUuid: parent === null ? null : id(parent),
    isSidechain: false,
    type,
    message:
      type === 'assistant'
        ? { id: `msg_${name.slice(0, 1)}`, role: 'assistant', content }
        : { role: 'user', content },
    uuid: id(name),
    sessionId: SESSION,
    timestamp: '2026-02-12T15:43:07.997Z',
  };
}

const call = (callId: string) => [
  { type: 'tool_use', id: callId, name: 'Read', input: { file_path: callId } },
];
const result = (callId: string) => [
  { type: 'tool_result', tool_use_id: callId, content: `contents of ${callId}` },
];

/**
 * One response with three parallel calls, written A, B, C, where C's record hangs off A's result (as Claude Code
 * writes it when a hook runs between blocks): a single walk back from the leaf passes A and C and misses B.
 */
const RECORDS = [
  record('1', null, 'user', 'Read the three files'),
  record('10', '1', 'assistant', [{ type: 'text', text: 'Reading them.' }]),
  record('11', '10', 'assistant', call('toolu_A')),
  record('12', '11', 'assistant', call('toolu_B')),
  record('21', '11', 'user', result('toolu_A')),
  record('13', '21', 'assistant', call('toolu_C')),
  record('22', '12', 'user', result('toolu_B')),
  record('23', '13', 'user', result('toolu_C')),
  record('30', '23', 'assistant', [{ type: 'text', text: 'All three read.' }]),
];

function shape(messages: readonly Message[]): string[] {
  return messages.map((message) =>
    [
      message.role,
      ...message.parts.map((part) =>
        part.type === 'tool-call' ? part.id : part.type === 'tool-result' ? `=${part.callId}` : part.type,
      ),
    ].join(' '),
  );
}

describe('parallel tool calls keep the order of the file', () => {
  const expected = [
    'user text',
    'assistant text toolu_A toolu_B toolu_C',
    'tool =toolu_A',
    'tool =toolu_B',
    'tool =toolu_C',
    'assistant text',
  ];

  it('replay lists calls A, B, C and their results in that order', () => {
    const bytes = jsonl(RECORDS);
    const session = loadSession(bytes);
    expect(comparable(session)).toEqual(comparable(loadSession(bytes, { prefilter: false })));
    expect(shape(session.transcript.messages)).toEqual(expected);
  });

  it('the claude-code codec reads the same conversation as replay', () => {
    const text = Buffer.from(jsonl(RECORDS)).toString('utf8');
    const [transcript] = documentTranscripts(decodeDocument(text, { format: 'claude-code' }));
    expect(shape(transcript?.messages ?? [])).toEqual(expected);
  });
});
