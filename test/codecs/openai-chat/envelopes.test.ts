import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../../src/codecs/document.js';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';
import { decodeDocument, encodeDocument } from '../../../src/codecs/registry.js';
import { withParts } from '../../../src/model/message-helpers.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { expectRoundTrip } from './round-trip.js';

const chat = [
  { role: 'system', content: 'policy' },
  { role: 'user', content: 'hi' },
];

function dropLast(t: Transcript): Transcript {
  return { ...t, messages: t.messages.slice(0, -1) };
}

describe('openai envelopes', () => {
  it('keeps the other keys of a {messages} object (tools, model) in place', () => {
    const wire = { model: 'gpt-4o', messages: chat, tools: [{ type: 'function', function: { name: 'f' } }] };
    const t = expectRoundTrip(openaiCodec, wire);
    expect(Object.keys(openaiCodec.encode(dropLast(t)) as object)).toEqual(['model', 'messages', 'tools']);
  });

  it('reads a tau-bench dataset as one transcript per element and keeps reward and info', () => {
    const entries = [0, 1].map((trial) => ({
      task_id: 3,
      reward: 1,
      info: { source: 'x' },
      traj: chat,
      trial,
    }));
    const text = `${JSON.stringify(entries, null, 2)}\n`;
    const document = decodeDocument(text);
    expect(document.format).toBe('openai');
    expect(document.layout).toBe('json-array');
    const transcripts = documentTranscripts(document);
    expect(transcripts).toHaveLength(2);
    expect(openaiCodec.encode(dropLast(transcripts[0]!))).toEqual({ ...entries[0], traj: chat.slice(0, 1) });
    expect(encodeDocument(document)).toBe(text);
  });

  it('reads a SWE-agent .traj history and keeps trajectory, info and every per-message key', () => {
    const wire = {
      environment: 'swe_main',
      trajectory: [{ action: 'ls', observation: 'a' }],
      history: [
        { role: 'system', content: 'sys', agent: 'main' },
        { role: 'assistant', content: 'I will list', thought: 'I will list', action: 'ls', agent: 'main' },
        { role: 'user', content: 'a', agent: 'main', is_demo: true },
      ],
      info: { exit_status: 'submitted' },
    };
    expectRoundTrip(openaiCodec, wire);
  });

  it('reads the last ToolBench snapshot as the transcript and keeps earlier snapshots and the tree', () => {
    const first = [chat[0], chat[1]];
    const last = [
      ...first,
      { role: 'assistant', content: null, function_call: { name: 'Finish', arguments: '{}' } },
    ];
    const wire = {
      win: true,
      tree: { node: 1 },
      answer_generation: { valid_data: true, train_messages: [first, last], query: 'q' },
    };
    const t = expectRoundTrip(openaiCodec, wire);
    expect(t.messages).toHaveLength(3);
    expect(openaiCodec.encode(dropLast(t))).toEqual({
      ...wire,
      answer_generation: { ...wire.answer_generation, train_messages: [first, first] },
    });
  });

  it('decodes a ToolBench answer without snapshots to an empty transcript with a warning', () => {
    const wire = { win: false, tree: {}, answer_generation: { valid_data: false, query: 'q' } };
    const { value, issues } = openaiCodec.decode(wire);
    expect(value.messages).toEqual([]);
    expect(issues).toMatchObject([{ code: 'invalid-shape', severity: 'warning' }]);
    expectRoundTrip(openaiCodec, wire);
  });

  it('writes a bare message array back as an array', () => {
    const t = expectRoundTrip(openaiCodec, chat);
    expect(openaiCodec.encode(dropLast(t))).toEqual(chat.slice(0, 1));
  });

  it('decodes a value that is no transcript to an empty transcript with an error and writes it back unchanged', () => {
    const wire = { something: 'else' };
    const { value, issues } = openaiCodec.decode(wire);
    expect(value.messages).toEqual([]);
    expect(issues).toMatchObject([{ code: 'invalid-shape', severity: 'error' }]);
    expectRoundTrip(openaiCodec, wire);
  });

  it('keeps the message key of a changed tau-bench entry where it was', () => {
    const wire = { task_id: 1, reward: 0, info: {}, traj: chat, trial: 0 };
    const t = openaiCodec.decode(wire).value;
    const changed = {
      ...t,
      messages: [t.messages[0]!, withParts(t.messages[1]!, [{ type: 'text', text: 'bye' }])],
    };
    expect(Object.keys(openaiCodec.encode(changed) as object)).toEqual([
      'task_id',
      'reward',
      'info',
      'traj',
      'trial',
    ]);
  });
});
