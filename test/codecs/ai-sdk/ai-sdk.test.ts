import { describe, expect, it } from 'vitest';
import { aiSdkCodec, decodeAiSdk, encodeAiSdk } from '../../../src/codecs/ai-sdk/index.js';
import { stripOrigins } from '../../../src/model/origins.js';
import type { Part } from '../../../src/model/part.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { schemaFailures } from './schema.js';

const wire = {
  messages: [
    {
      role: 'system',
      content: 'You are terse.',
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    },
    { role: 'user', content: 'Read the file and run the tests.' },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Two tools.', providerOptions: { anthropic: { signature: 'c2ln' } } },
        { type: 'text', text: 'On it.' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'read', input: { path: 'a.ts' } },
        {
          type: 'tool-call',
          toolCallId: 'call_2',
          toolName: 'test',
          input: {},
          providerOptions: { openai: { itemId: 'x' } },
        },
        {
          type: 'tool-call',
          toolCallId: 'ws_1',
          toolName: 'web_search',
          input: { q: 'x' },
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'ws_1',
          toolName: 'web_search',
          output: { type: 'json', value: [] },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'read',
          output: { type: 'json', value: { lines: 3 } },
        },
        {
          type: 'tool-result',
          toolCallId: 'call_2',
          toolName: 'test',
          output: { type: 'error-text', value: '1 failed' },
          custom: 1,
        },
        { type: 'tool-approval-response', approvalId: 'ap1', approved: true },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Here is a screenshot' },
        { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
        { type: 'file', data: 'https://example.com/a.pdf', mediaType: 'application/pdf' },
      ],
    },
  ],
  model: 'claude-sonnet-4-5',
};

describe('ai-sdk codec', () => {
  it('decodes parts, pairs and provider data', () => {
    const { value, issues } = decodeAiSdk(wire);
    expect(issues).toEqual([]);
    expect(value.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    const assistant = value.messages[2]?.parts ?? [];
    expect(assistant[0]).toMatchObject({ type: 'reasoning', text: 'Two tools.', signature: 'c2ln' });
    expect(assistant[2]).toMatchObject({
      type: 'tool-call',
      id: 'call_1',
      name: 'read',
      arguments: '{"path":"a.ts"}',
    });
    expect(assistant.slice(4).map((part) => part.type)).toEqual(['opaque', 'opaque']);
    const tool = value.messages[3]?.parts ?? [];
    expect(tool[0]).toMatchObject({
      type: 'tool-result',
      callId: 'call_1',
      name: 'read',
      content: [{ type: 'text', text: '{"lines":3}' }],
    });
    expect(tool[1]).toMatchObject({
      callId: 'call_2',
      isError: true,
      content: [{ type: 'text', text: '1 failed' }],
    });
    expect(value.messages[4]?.parts.map((part) => part.type)).toEqual(['text', 'image', 'opaque']);
    expect(verifyTranscript(value)).toEqual([]);
  });

  it('encodes back exactly with and without origins, and validates against the AI SDK schema', () => {
    const { value } = decodeAiSdk(wire);
    expect(encodeAiSdk(value)).toBe(wire);
    const again = encodeAiSdk(stripOrigins(value));
    expect(again).toEqual(wire);
    expect(schemaFailures(again)).toEqual([]);
  });

  it('keeps untouched messages and untouched parts of a changed message (origin kept) as the very objects read', () => {
    const { value } = decodeAiSdk(wire);
    const target = value.messages[3];
    if (target === undefined) throw new Error('missing');
    const parts = target.parts.map(
      (part): Part =>
        part.type === 'tool-result' && part.callId === 'call_1'
          ? { ...part, content: [{ type: 'text', text: '{"lines":4}' }] }
          : part,
    );
    const changed = {
      ...value,
      messages: value.messages.map((message) => (message === target ? { ...target, parts } : message)),
    };
    const out = encodeAiSdk(changed) as { messages: unknown[] };
    expect(out.messages[2]).toBe(wire.messages[2]);
    expect((out.messages[3] as { content: unknown[] }).content[0]).toEqual({
      type: 'tool-result',
      toolCallId: 'call_1',
      toolName: 'read',
      output: { type: 'json', value: { lines: 4 } },
    });
    expect((out.messages[3] as { content: unknown[] }).content[1]).toBe(wire.messages[3]?.content[1]);
  });

  it('writes a bare array back as a bare array and foreign transcripts as { messages }', () => {
    const bare = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
    const { value } = decodeAiSdk(bare);
    expect(encodeAiSdk(stripOrigins(value))).toEqual(bare);
    const foreign = encodeAiSdk({
      messages: [
        {
          role: 'assistant',
          parts: [
            { type: 'tool-call', id: 'c', name: 'f', arguments: 'not json' },
            { type: 'image', source: { kind: 'base64', data: 'AA==' } },
          ],
        },
        {
          role: 'tool',
          parts: [
            { type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'x' }], isError: true },
            { type: 'text', text: 'note' },
          ],
        },
      ],
    });
    expect(foreign).toEqual({
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'c', toolName: 'f', input: 'not json' },
            { type: 'file', data: 'AA==', mediaType: 'image/*' },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c',
              toolName: 'f',
              output: { type: 'error-text', value: 'x' },
            },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'note' }] },
      ],
    });
    expect(schemaFailures(foreign)).toEqual([]);
  });

  it('detects AI SDK messages and reports what it cannot read without throwing', () => {
    expect(aiSdkCodec.detect(wire)).toBe(2);
    expect(aiSdkCodec.detect([{ role: 'user', content: 'hi' }])).toBe(1);
    expect(aiSdkCodec.detect({ messages: [{ role: 'assistant', content: null, tool_calls: [] }] })).toBe(0);
    expect(aiSdkCodec.detect({ conversations: [] })).toBe(0);
    const broken = [
      { role: 'wizard', content: 'x' },
      { role: 'user', content: [{ type: 'text' }, 7] },
      'nope',
    ];
    const { value, issues } = decodeAiSdk(broken);
    expect(issues.map((issue) => issue.code)).toEqual([
      'unknown-role',
      'invalid-shape',
      'unknown-block',
      'invalid-shape',
    ]);
    expect(encodeAiSdk(stripOrigins(value))).toEqual(broken);
    expect(decodeAiSdk(42).issues[0]?.code).toBe('invalid-shape');
    expect(encodeAiSdk(decodeAiSdk(42).value)).toBe(42);
  });
});
