import { describe, expect, it } from 'vitest';
import { anthropicCodec } from '../../../src/codecs/anthropic-messages/index.js';
import { withParts } from '../../../src/model/message-helpers.js';
import { expectRoundTrip } from '../openai-chat/round-trip.js';

const request = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: 'claude-x',
  max_tokens: 1024,
  ...extra,
  messages,
});

describe('anthropic content blocks', () => {
  it('keeps cache_control, citations and unknown keys of text blocks', () => {
    const t = expectRoundTrip(
      anthropicCodec,
      request([
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'quote', citations: [{ type: 'char_location', cited_text: 'q' }] }],
        },
      ]),
    );
    expect(t.messages[0]?.parts).toMatchObject([{ type: 'text', text: 'hi' }]);
  });

  it('keeps cache_control on a changed text block', () => {
    const t = anthropicCodec.decode(
      request([
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ]),
    ).value;
    const [message] = t.messages;
    if (message?.parts[0]?.type !== 'text') throw new Error('shape');
    const changed = withParts(message, [{ ...message.parts[0], text: 'hello' }]);
    expect(anthropicCodec.encode({ ...t, messages: [changed] })).toMatchObject({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }] },
      ],
    });
  });

  it('reads base64 and url images with their source', () => {
    const t = expectRoundTrip(
      anthropicCodec,
      request([
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
            { type: 'image', source: { type: 'url', url: 'https://x/y.jpg' } },
          ],
        },
      ]),
    );
    expect(t.messages[0]?.parts).toEqual([
      { type: 'image', source: { kind: 'base64', data: 'iVBOR', mediaType: 'image/png' } },
      { type: 'image', source: { kind: 'url', url: 'https://x/y.jpg' } },
    ]);
  });

  it('reads tool_use input as JSON argument text and writes changed arguments back as an object', () => {
    const t = expectRoundTrip(
      anthropicCodec,
      request([
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'Read',
              input: { path: '/a', limit: 3 },
              caller: { type: 'direct' },
            },
          ],
        },
      ]),
    );
    const [message] = t.messages;
    expect(message?.parts[0]).toMatchObject({
      type: 'tool-call',
      id: 'toolu_1',
      name: 'Read',
      arguments: '{"path":"/a","limit":3}',
    });
    if (message?.parts[0]?.type !== 'tool-call') throw new Error('shape');
    const changed = withParts(message, [{ ...message.parts[0], arguments: '{"path":"/b"}' }]);
    expect(anthropicCodec.encode({ ...t, messages: [changed] })).toMatchObject({
      messages: [
        {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'Read',
              input: { path: '/b' },
              caller: { type: 'direct' },
            },
          ],
        },
      ],
    });
  });

  it('wraps argument text that is not a JSON object so the request stays valid', () => {
    const wire = anthropicCodec.encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'tool-call', id: 'a', name: 'f', arguments: '{"cut": "in the mid' },
            { type: 'tool-call', id: 'b', name: 'g', arguments: '' },
            { type: 'tool-call', id: 'c', name: 'h', arguments: '[1,2]' },
          ],
        },
      ],
    }) as { messages: { content: { input: unknown }[] }[] };
    expect(wire.messages[1]?.content.map((block) => block.input)).toEqual([
      { _raw_arguments: '{"cut": "in the mid' },
      {},
      { _raw_arguments: '[1,2]' },
    ]);
  });

  it('reads tool_result content as string, blocks (text, image, other) or nothing, with is_error', () => {
    const t = expectRoundTrip(
      anthropicCodec,
      request([
        {
          role: 'assistant',
          content: [1, 2, 3].map((n) => ({ type: 'tool_use', id: `t${n}`, name: 'f', input: {} })),
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'plain', is_error: false },
            {
              type: 'tool_result',
              tool_use_id: 't2',
              content: [
                { type: 'text', text: 'see' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
                { type: 'search_result', source: 's', title: 't', content: [] },
              ],
            },
            { type: 'tool_result', tool_use_id: 't3', is_error: true },
          ],
        },
      ]),
    );
    expect(t.messages[1]?.parts).toMatchObject([
      { callId: 't1', isError: false, content: [{ type: 'text', text: 'plain' }] },
      {
        callId: 't2',
        content: [{ type: 'text' }, { type: 'image' }, { type: 'opaque', kind: 'search_result' }],
      },
      { callId: 't3', isError: true, content: [] },
    ]);
  });

  it('reads thinking with its signature and redacted_thinking with its data', () => {
    const t = expectRoundTrip(
      anthropicCodec,
      request([
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'sig==' },
            { type: 'redacted_thinking', data: 'enc==' },
            { type: 'text', text: 'answer' },
          ],
        },
      ]),
    );
    expect(t.messages[0]?.parts.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'hmm', signature: 'sig==' },
      { type: 'reasoning', text: '', data: 'enc==' },
    ]);
  });

  it('carries server tool blocks, documents and unknown blocks verbatim', () => {
    const t = expectRoundTrip(
      anthropicCodec,
      request([
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc' } },
            { type: 'text', text: 'read' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'q' } },
            { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [] },
            { type: 'future_block', anything: 1 },
          ],
        },
      ]),
    );
    expect(t.messages[1]?.parts.map((p) => (p.type === 'opaque' ? p.kind : p.type))).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'future_block',
    ]);
  });

  it('keeps string and block system prompts, with cache_control', () => {
    expectRoundTrip(anthropicCodec, request([{ role: 'user', content: 'hi' }], { system: 'be brief' }));
    const t = expectRoundTrip(
      anthropicCodec,
      request([{ role: 'user', content: 'hi' }], {
        system: [{ type: 'text', text: 'long rules', cache_control: { type: 'ephemeral' } }],
      }),
    );
    expect(t.messages[0]).toMatchObject({ role: 'system', parts: [{ type: 'text', text: 'long rules' }] });
  });

  it('decodes a value that is no request to an empty transcript with an error and writes it back unchanged', () => {
    const { value, issues } = anthropicCodec.decode({ prompt: 'x' });
    expect(value.messages).toEqual([]);
    expect(issues).toMatchObject([{ code: 'invalid-shape', severity: 'error' }]);
    expectRoundTrip(anthropicCodec, { prompt: 'x' });
    expectRoundTrip(anthropicCodec, request(['garbage', { role: 'user', content: 'x' }]));
  });
});
