import { describe, expect, it } from 'vitest';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';
import { withParts } from '../../../src/model/message-helpers.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { expectRoundTrip } from './round-trip.js';

function response(id: string, text: string | null, callId: string, name: string, args: string) {
  return {
    id,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          tool_calls: [{ id: callId, type: 'function', function: { name, arguments: args } }],
        },
      },
    ],
  };
}

const metadata = (callId: string, name: string, model: unknown) => ({
  function_name: name,
  tool_call_id: callId,
  model_response: model,
  total_calls_in_response: 1,
});
const r1 = response('resp-1', 'Let me look.', 'call_1', 'execute_bash', '{"command": "ls"}');

const events = [
  {
    id: 0,
    source: 'agent',
    action: 'system',
    message: 'You are OpenHands.',
    args: { content: 'You are OpenHands.' },
  },
  {
    id: 1,
    source: 'user',
    action: 'message',
    message: 'list files',
    args: { content: 'list files', image_urls: null },
  },
  {
    id: 2,
    source: 'environment',
    observation: 'agent_state_changed',
    content: '',
    extras: { agent_state: 'running' },
  },
  {
    id: 3,
    source: 'agent',
    action: 'run',
    message: 'Running command: ls',
    args: { command: 'ls' },
    tool_call_metadata: metadata('call_1', 'execute_bash', r1),
  },
  {
    id: 4,
    source: 'agent',
    observation: 'run',
    cause: 3,
    content: 'a.txt\nb.txt',
    extras: { exit_code: 0 },
    tool_call_metadata: metadata('call_1', 'execute_bash', r1),
  },
  {
    id: 5,
    source: 'agent',
    action: 'message',
    message: 'Two files.',
    args: { content: 'Two files.', wait_for_response: true },
  },
];

function decode(wire: unknown): Transcript {
  return openaiCodec.decode(wire).value;
}

describe('openai codec on OpenHands event streams', () => {
  it('reads message, system, tool-call and observation events as a valid conversation', () => {
    const t = expectRoundTrip(openaiCodec, events);
    expect(t.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(t.messages[2]?.parts).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool-call', id: 'call_1', name: 'execute_bash', arguments: '{"command": "ls"}' },
    ]);
    expect(t.messages[3]?.parts).toMatchObject([
      { type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'a.txt\nb.txt' }] },
    ]);
    expect(verifyTranscript(t, { provider: 'openai' })).toEqual([]);
  });

  it('reads an evaluation output line and keeps its other keys', () => {
    expectRoundTrip(openaiCodec, {
      instance_id: 'x__y-1',
      instruction: 'fix',
      history: events,
      metrics: { cost: 1 },
      error: null,
    });
  });

  it('writes a shortened observation into a copy of its event', () => {
    const t = decode(events);
    const tool = t.messages[3]!;
    if (tool.parts[0]?.type !== 'tool-result') throw new Error('shape');
    const shorter = withParts(tool, [{ ...tool.parts[0], content: [{ type: 'text', text: 'a.txt …' }] }]);
    const encoded = openaiCodec.encode({
      ...t,
      messages: t.messages.map((m, i) => (i === 3 ? shorter : m)),
    }) as unknown[];
    expect(encoded[4]).toEqual({ ...events[4], content: 'a.txt …' });
    expect(encoded.filter((_, i) => i !== 4)).toEqual(events.filter((_, i) => i !== 4));
  });

  it('writes changed tool arguments into the model response of the action', () => {
    const t = decode(events);
    const assistant = t.messages[2]!;
    const parts = assistant.parts.map((p) =>
      p.type === 'tool-call' ? { ...p, arguments: '{"command": "ls -la"}' } : p,
    );
    const encoded = openaiCodec.encode({
      ...t,
      messages: t.messages.map((m, i) => (i === 2 ? withParts(m, parts) : m)),
    }) as { tool_call_metadata: { model_response: typeof r1 } }[];
    expect(
      encoded[3]?.tool_call_metadata.model_response.choices[0]?.message.tool_calls[0]?.function.arguments,
    ).toBe('{"command": "ls -la"}');
    expect(decode(encoded).messages[2]?.parts[1]).toMatchObject({ arguments: '{"command": "ls -la"}' });
  });

  it('keeps events outside the message view even when the messages around them are dropped', () => {
    const t = decode(events);
    const encoded = openaiCodec.encode({ ...t, messages: [t.messages[0]!, t.messages[4]!] });
    expect(encoded).toEqual([events[0], events[2], events[5]]);
  });

  it('writes a message condense inserted as a fresh event that reads back as the same message', () => {
    const t = decode(events);
    const summary = {
      role: 'user' as const,
      parts: [{ type: 'text' as const, text: 'Summary of earlier work.' }],
    };
    const encoded = openaiCodec.encode({
      ...t,
      messages: [t.messages[0]!, summary, ...t.messages.slice(2)],
    }) as unknown[];
    expect(encoded[1]).toMatchObject({
      source: 'user',
      action: 'message',
      args: { content: 'Summary of earlier work.' },
    });
    expect(decode(encoded).messages[1]?.parts).toEqual(summary.parts);
  });

  it('writes tool calls from another format as action events with a minimal model response', () => {
    const wire = openaiCodec.encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          parts: [{ type: 'tool-call', id: 't1', name: 'execute_bash', arguments: '{"command":"pwd"}' }],
        },
        {
          role: 'tool',
          parts: [
            {
              type: 'tool-result',
              callId: 't1',
              name: 'execute_bash',
              content: [{ type: 'text', text: '/w' }],
            },
          ],
        },
      ],
      meta: { codec: { openai: { envelope: 'openhands-events', skipped: [] } } },
    });
    const back = decode(wire);
    expect(back.messages.map((m) => m.parts)).toEqual([
      [{ type: 'text', text: 'go' }],
      [{ type: 'tool-call', id: 't1', name: 'execute_bash', arguments: '{"command":"pwd"}' }],
      [{ type: 'tool-result', callId: 't1', name: 'execute_bash', content: [{ type: 'text', text: '/w' }] }],
    ]);
  });

  it('reads old event streams without tool-call metadata as calls paired with the next observation', () => {
    const old = [
      { content: 'fix it', action: 'message', wait_for_response: false },
      { command: 'ls', thought: 'Look first.', action: 'run', is_confirmed: 'confirmed' },
      { content: 'a.txt', command_id: -1, command: 'ls', exit_code: 0, observation: 'run' },
      { outputs: {}, thought: 'Done.', action: 'finish' },
    ];
    const t = expectRoundTrip(openaiCodec, { issue: {}, history: old, success: true });
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(t.messages[1]?.parts[1]).toEqual({
      type: 'tool-call',
      id: 'call_event_1',
      name: 'run',
      arguments: '{"command":"ls"}',
    });
    expect(verifyTranscript(t, { provider: 'openai' })).toEqual([]);
  });

  it('shows the text of a model response once when several actions share it', () => {
    const shared = response('resp-9', 'Two steps.', 'c1', 'f', '{}');
    shared.choices[0]!.message.tool_calls.push({
      id: 'c2',
      type: 'function',
      function: { name: 'g', arguments: '{}' },
    });
    const stream = [
      { id: 1, source: 'user', action: 'message', message: 'go', args: { content: 'go' } },
      { id: 2, source: 'agent', action: 'run', args: {}, tool_call_metadata: metadata('c1', 'f', shared) },
      {
        id: 3,
        source: 'agent',
        observation: 'run',
        content: 'one',
        tool_call_metadata: metadata('c1', 'f', shared),
      },
      { id: 4, source: 'agent', action: 'run', args: {}, tool_call_metadata: metadata('c2', 'g', shared) },
      {
        id: 5,
        source: 'agent',
        observation: 'run',
        content: 'two',
        tool_call_metadata: metadata('c2', 'g', shared),
      },
    ];
    const t = expectRoundTrip(openaiCodec, stream);
    expect(t.messages[1]?.parts.map((p) => p.type)).toEqual(['text', 'tool-call']);
    expect(t.messages[3]?.parts.map((p) => p.type)).toEqual(['tool-call']);
    expect(verifyTranscript(t, { provider: 'openai' })).toEqual([]);
  });
});
