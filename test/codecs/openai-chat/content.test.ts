import { describe, expect, it } from 'vitest';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';
import { withParts } from '../../../src/model/message-helpers.js';
import { expectRoundTrip } from './round-trip.js';

const decode = (wire: unknown) => openaiCodec.decode(wire).value;

describe('openai message content', () => {
  it('reads string content as one text part and an empty string as no parts', () => {
    const t = expectRoundTrip(openaiCodec, [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: '' },
    ]);
    expect(t.messages.map((m) => m.parts)).toEqual([[{ type: 'text', text: 'hello' }], []]);
  });

  it('keeps null, absent and array content shapes when re-encoding', () => {
    const wire = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'assistant', content: null },
      { role: 'assistant' },
    ];
    const t = expectRoundTrip(openaiCodec, wire);
    expect(t.messages[0]?.parts.map((p) => p.type)).toEqual(['text', 'text']);
  });

  it('reads an image_url data URL as a base64 image and a web URL as a url image, keeping detail', () => {
    const wire = [
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/AAA', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        ],
      },
    ];
    const [message] = expectRoundTrip(openaiCodec, wire).messages;
    expect(message?.parts[0]).toMatchObject({
      type: 'image',
      source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/AAA' },
    });
    expect(message?.parts[1]).toMatchObject({
      type: 'image',
      source: { kind: 'url', url: 'https://example.com/cat.png' },
    });
  });

  it('carries audio, file and unknown parts verbatim as opaque parts', () => {
    const audio = { type: 'input_audio', input_audio: { data: 'AAA', format: 'wav' } };
    const file = { type: 'file', file: { file_id: 'file-1' } };
    const [message] = expectRoundTrip(openaiCodec, [{ role: 'user', content: [audio, file, 42] }]).messages;
    expect(message?.parts).toMatchObject([
      { type: 'opaque', kind: 'input_audio', value: audio },
      { type: 'opaque', kind: 'file', value: file },
      { type: 'opaque', kind: 'invalid', value: 42 },
    ]);
  });

  it('keeps unknown keys of text parts', () => {
    expectRoundTrip(openaiCodec, [
      { role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('writes a changed string message as a string and a changed part array as parts', () => {
    const t = decode([
      { role: 'user', content: 'old' },
      { role: 'user', content: [{ type: 'text', text: 'old' }] },
    ]);
    const changed = { ...t, messages: t.messages.map((m) => withParts(m, [{ type: 'text', text: 'new' }])) };
    expect(openaiCodec.encode(changed)).toEqual([
      { role: 'user', content: 'new' },
      { role: 'user', content: [{ type: 'text', text: 'new' }] },
    ]);
  });

  it('joins the texts of a new text-only message into one string and writes images as image_url parts', () => {
    const encoded = openaiCodec.encode({
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'look' },
            { type: 'image', source: { kind: 'base64', data: 'iVBOR', mediaType: 'image/png' } },
          ],
        },
      ],
    });
    expect(encoded).toEqual({
      messages: [
        { role: 'user', content: 'a\nb' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
          ],
        },
      ],
    });
  });

  it('writes parts the wire cannot hold (another format’s opaque blocks) as a short placeholder', () => {
    const encoded = openaiCodec.encode({
      messages: [
        {
          role: 'assistant',
          parts: [{ type: 'opaque', kind: 'server_tool_use', value: { type: 'server_tool_use' } }],
        },
      ],
    }) as { messages: { content: unknown }[] };
    expect(encoded.messages[0]?.content).toEqual([{ type: 'text', text: '[server_tool_use omitted]' }]);
  });

  it('reads LLaMA-Factory typed parts (text, reasoning, tool_call values) and writes them back in that dialect', () => {
    const wire = {
      messages: [
        { role: 'user', content: [{ type: 'text', value: 'area of r=2?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', value: 'use the tool' },
            { type: 'tool_call', value: '{"name": "circle_area", "arguments": {"radius": 2}}' },
          ],
        },
        { role: 'tool', content: [{ type: 'text', value: '12.57' }] },
      ],
      tools: '[]',
    };
    const t = expectRoundTrip(openaiCodec, wire);
    expect(t.messages[1]?.parts).toMatchObject([
      { type: 'reasoning', text: 'use the tool' },
      { type: 'tool-call', id: 'call_1_0', name: 'circle_area', arguments: '{"radius":2}' },
    ]);
    expect(t.messages[2]?.parts).toMatchObject([{ type: 'tool-result', callId: 'call_1_0' }]);
    const summary = { role: 'user' as const, parts: [{ type: 'text' as const, text: 'summary' }] };
    const encoded = openaiCodec.encode({ ...t, messages: [...t.messages, summary] }) as {
      messages: unknown[];
    };
    expect(encoded.messages[3]).toEqual({ role: 'user', content: [{ type: 'text', value: 'summary' }] });
  });

  it('rewrites a typed tool call whose arguments changed and keeps the original text otherwise', () => {
    const call = '{"name": "f", "arguments": {"a": 1}}';
    const t = decode([{ role: 'assistant', content: [{ type: 'tool_call', value: call }] }]);
    const [message] = t.messages;
    if (message?.parts[0]?.type !== 'tool-call') throw new Error('no call');
    const changed = withParts(message, [{ ...message.parts[0], arguments: '{"a":2}' }]);
    const kept = withParts(message, [...message.parts]);
    expect(openaiCodec.encode({ ...t, messages: [changed] })).toEqual([
      { role: 'assistant', content: [{ type: 'tool_call', value: '{"name":"f","arguments":{"a":2}}' }] },
    ]);
    expect(openaiCodec.encode({ ...t, messages: [kept] })).toEqual([
      { role: 'assistant', content: [{ type: 'tool_call', value: call }] },
    ]);
  });
});
