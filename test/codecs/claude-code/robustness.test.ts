import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  claudeCodeCodec,
  decodeClaudeCodeRecords,
  encodeClaudeCodeRecords,
} from '../../../src/codecs/claude-code/index.js';
import { decodeDocument } from '../../../src/codecs/registry.js';
import { stripOrigins } from '../../../src/model/origins.js';
import { said } from './helpers.js';

const envelope = (uuid: string, parentUuid: string | null) => ({
  parentUuid,
  isSidechain: false,
  userType: 'external',
  cwd: '/w',
  sessionId: 's-1',
  version: '2.1.0',
  uuid,
  timestamp: '2026-01-01T00:00:00.000Z',
});

const assistant = (uuid: string, parent: string | null, id: string, block: unknown) => ({
  ...envelope(uuid, parent),
  type: 'assistant',
  message: { id, type: 'message', role: 'assistant', model: 'm', content: [block], stop_reason: null },
  requestId: `req-${id}`,
});

const result = (uuid: string, parent: string, callId: string, text: string) => ({
  ...envelope(uuid, parent),
  type: 'user',
  message: { role: 'user', content: [{ tool_use_id: callId, type: 'tool_result', content: text }] },
  toolUseResult: { stdout: text },
});

describe('claude-code decode', () => {
  it('reads an empty file as an empty transcript and writes nothing back', () => {
    const { value, issues } = decodeClaudeCodeRecords([]);
    expect(value.messages).toEqual([]);
    expect(issues).toEqual([]);
    expect(encodeClaudeCodeRecords(stripOrigins(value))).toEqual([]);
  });

  it('merges one response split around its tool results and keeps results after their calls', () => {
    const records = [
      { ...envelope('u1', null), type: 'user', message: { role: 'user', content: 'list files' } },
      assistant('a1', 'u1', 'msg_1', {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'Bash',
        input: { command: 'ls' },
      }),
      { ...envelope('p1', 'a1'), type: 'progress', data: { type: 'hook_progress' }, toolUseID: 'toolu_1' },
      result('r1', 'a1', 'toolu_1', 'a.txt'),
      assistant('a2', 'r1', 'msg_1', {
        type: 'tool_use',
        id: 'toolu_2',
        name: 'Bash',
        input: { command: 'pwd' },
      }),
      result('r2', 'a2', 'toolu_2', '/w'),
      { type: 'summary', summary: 'Listing', leafUuid: 'elsewhere' },
    ];
    const { value, issues } = decodeClaudeCodeRecords(records);
    expect(issues).toEqual([]);
    expect(value.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(value.messages[1]?.parts.map((part) => (part.type === 'tool-call' ? part.id : part.type))).toEqual(
      ['toolu_1', 'toolu_2'],
    );
    expect(value.messages[1]?.id).toBe('a1');
    expect(encodeClaudeCodeRecords(value)).toBe(records);
    const again = encodeClaudeCodeRecords(stripOrigins(value));
    expect(again).toEqual(records);
  });

  it('reads, rewrites and relinks a response with 130,000 parallel tool calls', () => {
    // More calls than a function call takes arguments (about 125,000 here): spreading them anywhere would throw.
    const count = 130_000;
    const records: unknown[] = [
      { ...envelope('u0', null), type: 'user', message: { role: 'user', content: 'read them all' } },
    ];
    let parent = 'u0';
    for (let index = 0; index < count; index++) {
      const uuid = `a${index}`;
      records.push(
        assistant(uuid, parent, 'msg_1', { type: 'tool_use', id: `toolu_${index}`, name: 'Read', input: {} }),
      );
      parent = uuid;
    }
    for (let index = 0; index < count; index++) {
      records.push(result(`r${index}`, parent, `toolu_${index}`, `out ${index}`));
      parent = `r${index}`;
    }
    const { value, issues } = decodeClaudeCodeRecords(records);
    expect(issues).toEqual([]);
    expect(value.messages).toHaveLength(count + 2);
    expect(value.messages[1]?.parts).toHaveLength(count);
    // Without the last result the kept records are relinked around the gap.
    const shorter = { ...value, messages: value.messages.slice(0, -1) };
    const written = encodeClaudeCodeRecords(shorter) as { uuid?: string; parentUuid?: string | null }[];
    expect(written).toHaveLength(records.length - 1);
    expect(written.at(-1)?.parentUuid).toBe(`r${count - 3}`);
  });

  it('relinks 40,000 side records hanging from a chain of 40,000 dropped records in one walk', () => {
    // Each progress record's parent is one block of a response that lost every block but its first: walking the
    // dropped chain afresh for each of them took 140 s here (quadratic); the walk is now shared.
    const count = 40_000;
    const records: unknown[] = [
      { ...envelope('u0', null), type: 'user', message: { role: 'user', content: 'go' } },
    ];
    let parent = 'u0';
    for (let index = 0; index < count; index++) {
      records.push(assistant(`a${index}`, parent, 'msg_1', { type: 'text', text: `part ${index}` }));
      parent = `a${index}`;
    }
    for (let index = 0; index < count; index++) {
      records.push({ ...envelope(`p${index}`, `a${index}`), type: 'progress', data: { index } });
    }
    records.push({ ...envelope('u1', parent), type: 'user', message: { role: 'user', content: 'thanks' } });
    const { value, issues } = decodeClaudeCodeRecords(records);
    expect(issues).toEqual([]);
    const messages = value.messages.map((message, index) =>
      index === 1 ? { ...message, parts: message.parts.slice(0, 1) } : message,
    );
    const written = encodeClaudeCodeRecords({ ...value, messages }) as {
      uuid?: string;
      parentUuid?: string | null;
    }[];
    expect(written).toHaveLength(count + 3);
    const progress = written.filter((record) => record.uuid?.startsWith('p'));
    expect(progress).toHaveLength(count);
    expect(progress.every((record) => record.parentUuid === 'a0')).toBe(true);
    expect(written.find((record) => record.uuid === 'u1')?.parentUuid).toBe('a0');
  });

  it('reports unknown record types, records without a message and malformed blocks, and keeps them', () => {
    const records = [
      { ...envelope('x1', null), type: 'brand-new-kind', payload: 1 },
      { ...envelope('x2', null), type: 'user' },
      42,
      {
        ...envelope('x3', null),
        type: 'assistant',
        message: {
          id: 'm',
          role: 'assistant',
          content: ['bare', { type: 'server_tool_use', id: 's' }, { type: 'tool_use', id: 7 }],
        },
      },
    ];
    const { value, issues } = decodeClaudeCodeRecords(records);
    expect(issues.map((issue) => issue.code).sort()).toEqual([
      'invalid-shape',
      'invalid-shape',
      'unknown-block',
      'unknown-block',
      'unknown-block',
      'unknown-record',
    ]);
    expect(value.messages).toHaveLength(1);
    expect(value.messages[0]?.parts.map((part) => part.type)).toEqual(['opaque', 'opaque', 'opaque']);
    expect(encodeClaudeCodeRecords(stripOrigins(value))).toEqual(records);
  });

  it('keeps isMeta user records as messages, flagged', () => {
    const records = [
      {
        ...envelope('m1', null),
        type: 'user',
        isMeta: true,
        message: { role: 'user', content: '<system-reminder>x</system-reminder>' },
      },
    ];
    const message = decodeClaudeCodeRecords(records).value.messages[0];
    expect(message?.role).toBe('user');
    expect(message?.meta?.codec?.['claude-code']?.['isMeta']).toBe(true);
  });

  it('writes a minimal session for a transcript from another format', () => {
    const records = encodeClaudeCodeRecords({
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'be brief' }] },
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{"a":1}' }] },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'ok' }] }],
        },
        { role: 'assistant', parts: [{ type: 'text', text: 'done' }] },
      ],
    }) as Record<string, any>[];
    // Claude Code sends no system prompt from its files: it is kept as a system record, not put in the user's mouth.
    expect(records.map((record) => record['type'])).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(records[0]).toMatchObject({ subtype: 'condense_system_prompt', content: 'be brief' });
    expect(records[0]?.['parentUuid']).toBeNull();
    // The real times are unknown: no record claims one (no 1970 timestamps).
    expect(records.some((record) => 'timestamp' in record)).toBe(false);
    records.slice(1).forEach((record, index) => {
      expect(record['parentUuid']).toBe(records[index]?.['uuid']);
    });
    expect(records[3]?.['message']['content'][0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'c1',
      content: 'ok',
    });
    expect(new Set(records.map((record) => record['sessionId'])).size).toBe(1);
    expect(records.every((record) => claudeCodeCodec.detect(record) === 2)).toBe(true);
  });
});

const blockArb = fc.oneof(
  fc.jsonValue(),
  fc.record({ type: fc.constant('text'), text: fc.oneof(fc.string(), fc.integer()) }),
  fc.record(
    { type: fc.constant('thinking'), thinking: fc.string(), signature: fc.oneof(fc.string(), fc.boolean()) },
    { requiredKeys: ['type', 'thinking'] },
  ),
  fc.record(
    {
      type: fc.constant('tool_use'),
      id: fc.string(),
      name: fc.string(),
      input: fc.jsonValue(),
      caller: fc.jsonValue(),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('tool_result'),
      tool_use_id: fc.string(),
      content: fc.oneof(
        fc.string(),
        fc.array(fc.oneof(fc.jsonValue(), fc.record({ type: fc.constant('text'), text: fc.string() }))),
      ),
      is_error: fc.oneof(fc.boolean(), fc.string()),
    },
    { requiredKeys: ['type', 'tool_use_id'] },
  ),
  fc.record({
    type: fc.constant('image'),
    source: fc.record(
      {
        type: fc.constantFrom('base64', 'url', 'file'),
        media_type: fc.string(),
        data: fc.string(),
        url: fc.string(),
      },
      { requiredKeys: ['type'] },
    ),
  }),
);

const recordArb = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      type: fc.constantFrom('user', 'assistant', 'progress', 'system', 'summary', 'weird'),
      uuid: fc.constantFrom('a', 'b', 'c', 'd'),
      parentUuid: fc.constantFrom(null, 'a', 'b', 'c', 'x'),
      message: fc.oneof(
        fc.jsonValue(),
        fc.record(
          {
            id: fc.constantFrom('m1', 'm2'),
            role: fc.string(),
            content: fc.oneof(fc.string(), fc.array(blockArb, { maxLength: 4 })),
          },
          { requiredKeys: ['content'] },
        ),
      ),
      messageId: fc.constantFrom('a', 'b'),
      isMeta: fc.boolean(),
    },
    { requiredKeys: ['type'] },
  ),
);

describe('claude-code detection', () => {
  const session = (extra: object) =>
    [
      { ...envelope('u1', null), type: 'user', message: { role: 'user', content: 'hello' } },
      extra,
      assistant('a1', 'u1', 'msg_1', { type: 'text', text: 'hi' }),
    ]
      .map((record) => JSON.stringify(record))
      .join('\n');

  it('still reads a session holding a record type it does not know yet', () => {
    // Claude Code adds record types: one with only a session id (as `permission-mode` has), one only in the chain.
    for (const extra of [
      { type: 'future-mode', mode: 'plan', sessionId: 's-1' },
      { type: 'future-note', uuid: 'n1', parentUuid: 'u1', payload: { text: 'later' } },
    ]) {
      const decoded = decodeDocument(session(extra), { fileName: 'session.jsonl' });
      expect(decoded.format).toBe('claude-code');
      const [entry] = decoded.entries;
      expect(entry?.kind === 'transcript' ? entry.transcript.messages.map(said) : entry).toEqual([
        { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'hi' }] },
      ]);
    }
  });

  it('does not take a typed record without a session id or a chain link for one', () => {
    expect(claudeCodeCodec.detect({ type: 'future-note', uuid: 'n1' })).toBe(0);
    expect(claudeCodeCodec.detect({ type: 'message', role: 'user', content: 'hi' })).toBe(0);
  });
});

describe('claude-code decode of arbitrary records (property)', () => {
  it('never throws and encodes back to the same records, with and without origins', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 12 }), (records) => {
        const { value } = decodeClaudeCodeRecords(records);
        expect(encodeClaudeCodeRecords(value)).toBe(records);
        expect(encodeClaudeCodeRecords(stripOrigins(value))).toEqual(records);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (wire) => {
        const { value } = decodeClaudeCodeRecords(wire);
        expect(Array.isArray(value.messages)).toBe(true);
        claudeCodeCodec.detect(wire);
      }),
    );
  });

  it('decodes the same messages whatever part of them was re-encoded', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 12 }), (records) => {
        const { value } = decodeClaudeCodeRecords(records);
        const back = decodeClaudeCodeRecords(encodeClaudeCodeRecords(stripOrigins(value))).value;
        expect(back.messages.map(said)).toEqual(value.messages.map(said));
      }),
      { numRuns: 200 },
    );
  });
});
