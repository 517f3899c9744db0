import { describe, expect, it } from 'vitest';
import {
  decodeResponses,
  detectResponses,
  encodeResponses,
  verifyResponsesInput,
} from '../../../src/codecs/openai-responses/index.js';
import { detectFormat } from '../../../src/codecs/registry.js';
import type { Message } from '../../../src/model/message.js';
import { withParts } from '../../../src/model/message-helpers.js';
import { stripOrigins } from '../../../src/model/origins.js';
import type { Transcript } from '../../../src/model/transcript.js';
import { verifyTranscript } from '../../../src/model/verify.js';

const REASONING = {
  type: 'reasoning',
  id: 'rs_1',
  summary: [{ type: 'summary_text', text: 'Look at the files first.' }],
  encrypted_content: 'gAAAAABencrypted-blob==',
};

const REQUEST = {
  model: 'gpt-5',
  instructions: 'You are a coding agent.',
  input: [
    { role: 'user', content: 'List the files in src.' },
    REASONING,
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Listing them.', annotations: [] }],
    },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{"cmd":"ls src"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'a.ts\nb.ts' },
    {
      type: 'custom_tool_call',
      call_id: 'call_2',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** End Patch',
    },
    { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done!' },
    { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'vitest' } },
    {
      type: 'local_shell_call',
      id: 'lsh_1',
      call_id: 'call_3',
      status: 'completed',
      action: { type: 'exec', command: ['pwd'], env: {} },
    },
    { type: 'local_shell_call_output', call_id: 'call_3', output: '/repo' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Two files.' }] },
  ],
  tools: [{ type: 'function', name: 'shell' }],
  store: false,
};

function decoded(wire: unknown = REQUEST): Transcript {
  const result = decodeResponses(wire);
  expect(result.issues).toEqual([]);
  return result.value;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('openai-responses codec', () => {
  it('reads instructions as the system prompt, a model turn as one assistant message, each output as a tool message', () => {
    const transcript = decoded();
    expect(transcript.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    const turn = transcript.messages[2] as Message;
    expect(turn.parts.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call']);
    const custom = transcript.messages[4]?.parts[0];
    expect(custom).toMatchObject({ type: 'tool-call', id: 'call_2', name: 'apply_patch' });
    expect(JSON.parse((custom as { arguments: string }).arguments)).toEqual({
      input: '*** Begin Patch\n*** End Patch',
    });
    const shell = transcript.messages[6]?.parts;
    expect(shell?.map((part) => part.type)).toEqual(['opaque', 'tool-call']);
    expect(shell?.[1]).toMatchObject({
      id: 'call_3',
      name: 'local_shell',
      arguments: '{"type":"exec","command":["pwd"],"env":{}}',
    });
    expect(verifyTranscript(transcript, { provider: 'openai' })).toEqual([]);
  });

  it('writes an untouched request back as the very value it read', () => {
    expect(encodeResponses(decoded())).toBe(REQUEST);
  });

  it('keeps reasoning, calls and server items byte-exact when their message changes around them', () => {
    const transcript = decoded(clone(REQUEST));
    const turn = transcript.messages[2] as Message;
    const changed = withParts(
      turn,
      turn.parts.filter((part) => part.type !== 'text'),
    );
    const messages = transcript.messages.map((message) => (message === turn ? changed : message));
    const wire = encodeResponses({ ...transcript, messages }) as typeof REQUEST;
    expect(wire.input[1]).toEqual(REASONING);
    expect(wire.input[2]).toEqual(REQUEST.input[3]);
    expect(wire.input).toHaveLength(REQUEST.input.length - 1);
    expect(wire.instructions).toBe(REQUEST.instructions);
    expect(wire.tools).toEqual(REQUEST.tools);
    expect(verifyResponsesInput(wire.input)).toEqual([]);
  });

  it('re-encodes every message from its parts to the same items when origins are gone', () => {
    const transcript = decoded(clone(REQUEST));
    const stripped = stripOrigins(transcript);
    expect(encodeResponses(stripped)).toEqual(REQUEST);
  });

  it('writes changed custom tool input back as text and changed built-in call input as its action', () => {
    const transcript = decoded(clone(REQUEST));
    const messages = transcript.messages.map((message) =>
      withParts(
        message,
        message.parts.map((part) => {
          if (part.type !== 'tool-call') return part;
          if (part.id === 'call_2') return { ...part, arguments: JSON.stringify({ input: 'patched' }) };
          if (part.id === 'call_3') return { ...part, arguments: '{"type":"exec","command":["ls"]}' };
          return part;
        }),
      ),
    );
    const wire = encodeResponses({ ...transcript, messages }) as typeof REQUEST;
    expect(wire.input.find((item) => 'call_id' in item && item.call_id === 'call_2')).toMatchObject({
      type: 'custom_tool_call',
      input: 'patched',
    });
    expect(wire.input.find((item) => item.type === 'local_shell_call')).toMatchObject({
      id: 'lsh_1',
      action: { type: 'exec', command: ['ls'] },
    });
  });

  it('turns a chat transcript into a valid request: instructions, input_text/output_text, calls and outputs', () => {
    const transcript: Transcript = {
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Weather?' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', text: 'Anthropic thinking', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool-call', id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris"}' },
          ],
        },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', callId: 'toolu_1', content: [{ type: 'text', text: 'Sunny' }] }],
        },
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'And this?' },
            { type: 'image', source: { kind: 'base64', data: 'iVBORw0KGgo=', mediaType: 'image/png' } },
          ],
        },
      ],
    };
    const wire = encodeResponses(transcript) as { instructions: string; input: unknown[] };
    expect(wire.instructions).toBe('Be brief.');
    expect(wire.input).toEqual([
      { type: 'message', role: 'user', content: 'Weather?' },
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: '<think>\nAnthropic thinking\n</think>' },
          { type: 'output_text', text: 'Checking.' },
        ],
      },
      { type: 'function_call', call_id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'toolu_1', output: 'Sunny' },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'And this?' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
        ],
      },
    ]);
    expect(verifyResponsesInput(wire.input)).toEqual([]);
    // The reasoning the API would not take back as an item reads back as reasoning, only its signature lost.
    const back = decodeResponses(wire).value.messages[2];
    expect(back?.parts.slice(0, 2)).toMatchObject([
      { type: 'reasoning', text: 'Anthropic thinking' },
      { type: 'text', text: 'Checking.' },
    ]);
    // Changed again, it is written as it was read: one message item.
    const again = encodeResponses({ messages: [withParts(back as Message, [...(back as Message).parts])] });
    expect((again as { input: unknown[] }).input[0]).toEqual(wire.input[1]);
  });

  it('joins 300,000 leading system messages into instructions and keeps every other message, in order', () => {
    // Each message was looked up in the list of joined system messages: quadratic, about 70 s here at this size.
    const count = 300_000;
    const messages: Message[] = [];
    for (let index = 0; index < count; index++) {
      messages.push({ role: 'system', parts: [{ type: 'text', text: `rule ${index}` }] });
    }
    for (let index = 0; index < count; index++) {
      messages.push({ role: 'user', parts: [{ type: 'text', text: `question ${index}` }] });
    }
    const wire = encodeResponses({ messages }) as { instructions: string; input: { content: string }[] };
    expect(wire.instructions.split('\n\n')).toHaveLength(count);
    expect(wire.instructions.endsWith(`rule ${count - 1}`)).toBe(true);
    expect(wire.input).toHaveLength(count);
    expect(wire.input.every((item, index) => item.content === `question ${index}`)).toBe(true);
  });

  it('keeps reasoning of which only a signature was logged as reasoning, and leaves out encrypted-only reasoning', () => {
    const transcript: Transcript = {
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Go.' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', text: '', signature: 'sig' },
            { type: 'reasoning', text: '', data: 'opaque-bytes' },
            { type: 'text', text: 'Done.' },
          ],
        },
      ],
    };
    const wire = encodeResponses(transcript) as { input: unknown[] };
    expect(JSON.stringify(wire)).not.toContain('opaque-bytes');
    expect(decodeResponses(wire).value.messages[1]?.parts).toMatchObject([
      { type: 'reasoning', text: '' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(verifyResponsesInput(wire.input)).toEqual([]);
  });

  it('answers a built-in call from another format with the output item its call needs', () => {
    const transcript = decoded(clone(REQUEST));
    const messages = transcript.messages.map((message) =>
      message.role === 'tool' &&
      message.parts[0]?.type === 'tool-result' &&
      message.parts[0].callId === 'call_3'
        ? {
            role: 'tool' as const,
            parts: [
              {
                type: 'tool-result' as const,
                callId: 'call_3',
                content: [{ type: 'text' as const, text: '/tmp' }],
              },
            ],
          }
        : message,
    );
    const wire = encodeResponses({ ...transcript, messages }) as typeof REQUEST;
    expect(wire.input.find((item) => item.type === 'local_shell_call_output')).toEqual({
      type: 'local_shell_call_output',
      call_id: 'call_3',
      output: '/tmp',
    });
    expect(verifyResponsesInput(wire.input)).toEqual([]);
  });

  it('splits a changed response object back into input and output', () => {
    const response = {
      id: 'resp_1',
      object: 'response',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
      output: [
        {
          type: 'message',
          id: 'msg_9',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hello' }],
        },
      ],
      usage: { input_tokens: 3, output_tokens: 1 },
    };
    const transcript = decoded(clone(response));
    const messages = [...transcript.messages.map((message) => withParts(message, [...message.parts]))];
    expect(encodeResponses({ ...transcript, messages })).toEqual(response);
  });

  it('detects requests, response objects and item lists, and not chat messages or rollout lines', () => {
    expect(detectResponses(REQUEST)).toBe(2);
    expect(detectResponses({ object: 'response', output: [] })).toBe(2);
    expect(detectResponses(REQUEST.input)).toBe(2);
    expect(detectResponses({ model: 'gpt-5', input: 'hello' })).toBe(2);
    expect(detectResponses({ messages: [{ role: 'user', content: 'hi' }] })).toBe(0);
    expect(detectResponses([{ role: 'user', content: 'hi' }])).toBe(0);
    expect(detectResponses({ type: 'response_item', payload: REASONING })).toBe(0);
    expect(detectFormat([REQUEST])).toBe('openai-responses');
    expect(detectFormat([REQUEST.input])).toBe('openai-responses');
  });

  it('reads a string input as one user message and writes it back as a string', () => {
    const body = { model: 'gpt-5', input: 'hello there' };
    const transcript = decoded(body);
    expect(transcript.messages).toMatchObject([
      { role: 'user', parts: [{ type: 'text', text: 'hello there' }] },
    ]);
    expect(encodeResponses(transcript)).toBe(body);
  });
});

describe('verifyResponsesInput', () => {
  const call = { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' };
  const output = { type: 'function_call_output', call_id: 'c1', output: 'ok' };

  it('accepts a valid list', () => {
    expect(verifyResponsesInput(REQUEST.input)).toEqual([]);
  });

  it.each([
    ['missing-output', [call]],
    ['orphan-output', [output]],
    ['duplicate-output', [call, output, output]],
    ['duplicate-call-id', [call, call, output]],
    ['output-type-mismatch', [call, { type: 'custom_tool_call_output', call_id: 'c1', output: 'x' }]],
    [
      'invalid-content',
      [{ type: 'message', role: 'assistant', content: [{ type: 'input_text', text: 'x' }] }],
    ],
    ['invalid-content', [{ type: 'message', role: 'user', content: [{ type: 'output_text', text: 'x' }] }]],
    ['reasoning-without-following-item', [REASONING, { role: 'user', content: 'next' }]],
    ['invalid-item', ['text']],
  ])('reports %s', (code, items) => {
    expect(verifyResponsesInput(items).map((violation) => violation.code)).toContain(code);
  });

  it("accepts Codex's function_call_output answering a local shell call", () => {
    expect(
      verifyResponsesInput([
        {
          type: 'local_shell_call',
          call_id: 's1',
          status: 'completed',
          action: { type: 'exec', command: ['ls'] },
        },
        { type: 'function_call_output', call_id: 's1', output: 'a' },
      ]),
    ).toEqual([]);
  });
});
