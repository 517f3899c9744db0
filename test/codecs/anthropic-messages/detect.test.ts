import { describe, expect, it } from 'vitest';
import { anthropicCodec } from '../../../src/codecs/anthropic-messages/index.js';

const detect = anthropicCodec.detect;

describe('anthropic format detection', () => {
  it('is sure about tool_use, tool_result, thinking and source images', () => {
    expect(
      detect({
        messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: {} }] }],
      }),
    ).toBe(2);
    expect(
      detect([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] }]),
    ).toBe(2);
    expect(detect([{ role: 'assistant', content: [{ type: 'redacted_thinking', data: 'x' }] }])).toBe(2);
    expect(
      detect([
        {
          role: 'user',
          content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'x' } }],
        },
      ]),
    ).toBe(2);
  });

  it('is sure about a request with a top-level system prompt', () => {
    expect(detect({ model: 'claude', system: 'be brief', messages: [{ role: 'user', content: 'hi' }] })).toBe(
      2,
    );
  });

  it('finds plain user/assistant text plausible', () => {
    expect(detect({ messages: [{ role: 'user', content: 'hi' }] })).toBe(1);
    expect(detect([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])).toBe(1);
  });

  it('does not claim OpenAI, AI SDK, ShareGPT or Claude Code shapes', () => {
    expect(
      detect([
        { role: 'system', content: 'x' },
        { role: 'user', content: 'hi' },
      ]),
    ).toBe(0);
    expect(detect([{ role: 'tool', tool_call_id: 'a', content: 'x' }])).toBe(0);
    expect(detect([{ role: 'assistant', content: null, tool_calls: [] }])).toBe(0);
    expect(detect([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'u' } }] }])).toBe(0);
    expect(detect([{ role: 'user', content: [{ type: 'image', image: 'data' }] }])).toBe(0);
    expect(
      detect([
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'f', input: {} }] },
      ]),
    ).toBe(0);
    expect(detect({ conversations: [{ from: 'human', value: 'hi' }] })).toBe(0);
    expect(
      detect({
        type: 'assistant',
        uuid: 'u',
        message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
      }),
    ).toBe(0);
    for (const value of [null, 1, 'x', [], { a: 1 }]) expect(detect(value)).toBe(0);
  });
});
