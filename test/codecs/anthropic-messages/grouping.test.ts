import { describe, expect, it } from 'vitest';
import { anthropicCodec } from '../../../src/codecs/anthropic-messages/index.js';
import { withParts } from '../../../src/model/message-helpers.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { expectRoundTrip } from '../openai-chat/round-trip.js';

const use = (id: string) => ({ type: 'tool_use', id, name: 'f', input: {} });
const result = (id: string, content = 'ok') => ({ type: 'tool_result', tool_use_id: id, content });

describe('anthropic tool-result grouping', () => {
  it('splits a user message with tool results into a tool message and a user message', () => {
    const t = expectRoundTrip(anthropicCodec, {
      messages: [
        { role: 'user', content: 'start' },
        { role: 'assistant', content: [use('a'), use('b')] },
        { role: 'user', content: [result('a'), result('b'), { type: 'text', text: 'and now this' }] },
      ],
    });
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(t.messages[2]?.parts.map((p) => p.type)).toEqual(['tool-result', 'tool-result']);
    expect(t.messages[3]?.parts).toEqual([{ type: 'text', text: 'and now this' }]);
    expect(verifyTranscript(t, { provider: 'anthropic' })).toEqual([]);
  });

  it('merges interleaved blocks back in their original order', () => {
    expectRoundTrip(anthropicCodec, {
      messages: [
        { role: 'assistant', content: [use('a'), use('b')] },
        { role: 'user', content: [result('a'), { type: 'text', text: 'between' }, result('b')] },
      ],
    });
  });

  it('merges a changed tool message back with its user message', () => {
    const t = anthropicCodec.decode({
      messages: [
        { role: 'assistant', content: [use('a')] },
        { role: 'user', content: [result('a', 'a very long output'), { type: 'text', text: 'next' }] },
      ],
    }).value;
    const tool = t.messages[1]!;
    if (tool.parts[0]?.type !== 'tool-result') throw new Error('shape');
    const shorter = withParts(tool, [{ ...tool.parts[0], content: [{ type: 'text', text: 'short' }] }]);
    expect(anthropicCodec.encode({ ...t, messages: [t.messages[0]!, shorter, t.messages[2]!] })).toEqual({
      messages: [
        { role: 'assistant', content: [use('a')] },
        { role: 'user', content: [result('a', 'short'), { type: 'text', text: 'next' }] },
      ],
    });
  });

  it('keeps consecutive wire messages of the same role apart when they were apart', () => {
    expectRoundTrip(anthropicCodec, {
      messages: [
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: 'three' },
      ],
    });
  });

  it('merges a run of tool messages from elsewhere and the user message after it, results first', () => {
    const wire = anthropicCodec.encode({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'go' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'tool-call', id: 'a', name: 'f', arguments: '{}' },
            { type: 'tool-call', id: 'b', name: 'f', arguments: '{}' },
          ],
        },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', callId: 'a', content: [{ type: 'text', text: 'A' }] }],
        },
        {
          role: 'tool',
          parts: [
            { type: 'tool-result', callId: 'b', content: [{ type: 'text', text: 'B' }], isError: true },
          ],
        },
        { role: 'user', parts: [{ type: 'text', text: 'thanks' }] },
      ],
    });
    expect(wire).toEqual({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [use('a'), use('b')] },
        {
          role: 'user',
          content: [
            result('a', 'A'),
            { ...result('b', 'B'), is_error: true },
            { type: 'text', text: 'thanks' },
          ],
        },
      ],
    });
  });
});
