import { describe, expect, it } from 'vitest';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';
import { withParts } from '../../../src/model/message-helpers.js';
import { expectRoundTrip } from './round-trip.js';

describe('openai messages', () => {
  it('reads developer as a system message and writes it back as developer', () => {
    const t = expectRoundTrip(openaiCodec, [
      { role: 'developer', content: 'rules' },
      { role: 'user', content: 'hi' },
    ]);
    expect(t.messages[0]?.role).toBe('system');
    const changed = {
      ...t,
      messages: [withParts(t.messages[0]!, [{ type: 'text', text: 'new rules' }]), t.messages[1]!],
    };
    expect(openaiCodec.encode(changed)).toEqual([
      { role: 'developer', content: 'new rules' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('reads reasoning_content and reasoning strings as a reasoning part and writes each to its own key', () => {
    const t = expectRoundTrip(openaiCodec, [
      { role: 'assistant', content: 'a', reasoning_content: 'thought 1' },
      { role: 'assistant', content: 'b', reasoning: 'thought 2' },
    ]);
    expect(t.messages.map((m) => m.parts[0])).toEqual([
      { type: 'reasoning', text: 'thought 1' },
      { type: 'reasoning', text: 'thought 2' },
    ]);
  });

  it('preserves name, refusal and unknown keys', () => {
    expectRoundTrip(openaiCodec, [
      { role: 'user', name: 'alice', content: 'hi', valid: true },
      { role: 'assistant', content: null, refusal: 'I cannot help with that.', audio: { id: 'a1' } },
    ]);
  });

  it('keeps unknown keys and the name of a changed message', () => {
    const t = openaiCodec.decode([{ role: 'user', name: 'alice', content: 'hi', agent: 'main' }]).value;
    const changed = { ...t, messages: [withParts(t.messages[0]!, [{ type: 'text', text: 'bye' }])] };
    expect(openaiCodec.encode(changed)).toEqual([
      { role: 'user', name: 'alice', content: 'bye', agent: 'main' },
    ]);
  });

  it('reads an unknown role as a user message with a warning and writes the role back', () => {
    const wire = [{ role: 'ipython', content: 'out' }, { content: 'no role' }];
    const { value, issues } = openaiCodec.decode(wire);
    expect(value.messages.map((m) => m.role)).toEqual(['user', 'user']);
    expect(issues.map((issue) => [issue.code, issue.severity])).toEqual([
      ['unknown-role', 'warning'],
      ['unknown-role', 'warning'],
    ]);
    expectRoundTrip(openaiCodec, wire);
  });

  it('carries a message that is not an object verbatim and reports it as an error', () => {
    const wire = [{ role: 'user', content: 'x' }, 'garbage', null];
    const { issues } = openaiCodec.decode(wire);
    expect(issues.map((issue) => issue.path)).toEqual([[1], [2]]);
    expect(issues.every((issue) => issue.severity === 'error')).toBe(true);
    expectRoundTrip(openaiCodec, wire);
  });

  it('emits an untouched message as the very object it was read from while a changed neighbour is re-encoded', () => {
    const first = { role: 'user', content: 'keep me' };
    const second = { role: 'assistant', content: 'change me', extra_key: 1 };
    const t = openaiCodec.decode([first, second]).value;
    const encoded = openaiCodec.encode({
      ...t,
      messages: [t.messages[0]!, withParts(t.messages[1]!, [{ type: 'text', text: 'changed' }])],
    }) as unknown[];
    expect(encoded[0]).toBe(first);
    expect(encoded[1]).toEqual({ role: 'assistant', content: 'changed', extra_key: 1 });
  });

  it('writes a transcript from elsewhere as {messages}, reasoning as <think> text (the API has no reasoning field)', () => {
    const encoded = openaiCodec.encode({
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'sys' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', text: 'hmm', signature: 'sig' },
            { type: 'reasoning', text: '', data: 'encrypted' },
            { type: 'tool-call', id: 't1', name: 'f', arguments: '{"a":1}' },
          ],
        },
      ],
    });
    expect(encoded).toEqual({
      messages: [
        { role: 'system', content: 'sys' },
        {
          role: 'assistant',
          content: '<think>\nhmm\n</think>',
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
      ],
    });
    const back = openaiCodec.decode(encoded).value.messages[1];
    expect(back?.parts.map((part) => part.type)).toEqual(['reasoning', 'tool-call']);
  });

  it('writes calls without text as null content', () => {
    const encoded = openaiCodec.encode({
      messages: [{ role: 'assistant', parts: [{ type: 'tool-call', id: 't1', name: 'f', arguments: '{}' }] }],
    });
    expect(encoded).toEqual({
      messages: [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
      ],
    });
  });
});
