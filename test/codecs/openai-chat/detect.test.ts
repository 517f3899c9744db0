import { describe, expect, it } from 'vitest';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';

const detect = openaiCodec.detect;

describe('openai format detection', () => {
  it('is sure about tool calls, tool and function roles and developer messages', () => {
    expect(
      detect([
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
      ]),
    ).toBe(2);
    expect(detect([{ role: 'tool', tool_call_id: 'a', content: 'x' }])).toBe(2);
    expect(detect({ messages: [{ role: 'function', name: 'f', content: 'x' }] })).toBe(2);
    expect(detect([{ role: 'developer', content: 'x' }])).toBe(2);
  });

  it('is sure about dataset envelopes', () => {
    expect(detect({ task_id: 1, traj: [{ role: 'user', content: 'x' }] })).toBe(2);
    expect(detect({ history: [{ role: 'user', content: 'x' }], trajectory: [] })).toBe(2);
    expect(detect({ answer_generation: { valid_data: false } })).toBe(2);
    expect(detect([{ id: 0, source: 'user', action: 'message', args: { content: 'x' } }])).toBe(2);
    expect(detect({ instance_id: 'a', history: [{ action: 'message', content: 'x' }] })).toBe(2);
  });

  it('finds plain role/content messages plausible', () => {
    expect(
      detect([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ]),
    ).toBe(1);
    expect(detect({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })).toBe(1);
  });

  it('does not claim Anthropic requests or blocks', () => {
    expect(detect({ system: 'x', messages: [{ role: 'user', content: 'hi' }] })).toBe(0);
    expect(
      detect({
        messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: {} }] }],
      }),
    ).toBe(0);
    expect(
      detect([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] }]),
    ).toBe(0);
    expect(
      detect([{ role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 's' }] }]),
    ).toBe(0);
    expect(detect([{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }])).toBe(
      0,
    );
  });

  it('does not claim ShareGPT, Claude Code or AI SDK shapes', () => {
    expect(detect({ conversations: [{ from: 'human', value: 'hi' }] })).toBe(0);
    expect(detect([{ from: 'human', value: 'hi' }])).toBe(0);
    expect(detect({ type: 'user', uuid: 'u', message: { role: 'user', content: 'hi' } })).toBe(0);
    expect(
      detect([
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'f', input: {} }] },
      ]),
    ).toBe(0);
    expect(detect([{ role: 'assistant', content: [{ type: 'reasoning', text: 'x' }] }])).toBe(0);
  });

  it('rejects values that are no transcript', () => {
    for (const value of [null, 1, 'x', [], [1, 2], { a: 1 }, [{ task_id: 1, traj: [] }]])
      expect(detect(value)).toBe(0);
  });
});
