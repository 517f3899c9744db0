import { describe, expect, it } from 'vitest';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';
import { withParts } from '../../../src/model/message-helpers.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { expectRoundTrip } from './round-trip.js';

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

describe('openai tool calls and results', () => {
  it('reads tool_calls as tool-call parts keeping the exact argument text', () => {
    const args = '{ "city" : "Paris",\n "unit": "C" }';
    const t = expectRoundTrip(openaiCodec, [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'weather', args)] },
      { role: 'tool', tool_call_id: 'c1', content: '18' },
    ]);
    expect(t.messages[1]?.parts).toMatchObject([
      { type: 'tool-call', id: 'c1', name: 'weather', arguments: args },
    ]);
    expect(t.messages[2]).toMatchObject({
      role: 'tool',
      parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: '18' }] }],
    });
    expect(verifyTranscript(t, { provider: 'openai' })).toEqual([]);
  });

  it('pairs parallel tool calls with their results by id', () => {
    const t = expectRoundTrip(openaiCodec, [
      { role: 'user', content: 'both' },
      { role: 'assistant', content: 'on it', tool_calls: [call('a', 'f', '{}'), call('b', 'g', '{}')] },
      { role: 'tool', tool_call_id: 'b', content: 'B' },
      { role: 'tool', tool_call_id: 'a', content: 'A' },
    ]);
    expect(t.messages.slice(2).map((m) => m.parts[0])).toMatchObject([{ callId: 'b' }, { callId: 'a' }]);
    expect(verifyTranscript(t, { provider: 'openai' })).toEqual([]);
  });

  it('keeps a tool result name and unknown tool-call keys', () => {
    expectRoundTrip(openaiCodec, [
      { role: 'assistant', content: null, tool_calls: [{ ...call('x', 'f', '{}'), index: 0 }] },
      { role: 'tool', tool_call_id: 'x', name: 'f', content: 'ok' },
    ]);
  });

  it('reads a legacy function_call and the function message after it as a pair with a synthesized id', () => {
    const wire = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, function_call: { name: 'search', arguments: '{"q": "x"}' } },
      { role: 'function', name: 'search', content: '{"hits": 0}' },
    ];
    const t = expectRoundTrip(openaiCodec, wire);
    expect(t.messages[1]?.parts).toMatchObject([{ type: 'tool-call', id: 'call_legacy_1', name: 'search' }]);
    expect(t.messages[2]?.parts).toMatchObject([
      { type: 'tool-result', callId: 'call_legacy_1', name: 'search' },
    ]);
    expect(verifyTranscript(t, { provider: 'openai' })).toEqual([]);
  });

  it('writes a changed legacy pair back in the legacy shape, never with the synthesized id', () => {
    const t = openaiCodec.decode([
      { role: 'assistant', content: null, function_call: { name: 'search', arguments: '{}' } },
      { role: 'function', name: 'search', content: 'long output' },
    ]).value;
    const [assistant, result] = t.messages;
    if (assistant === undefined || result?.parts[0]?.type !== 'tool-result') throw new Error('shape');
    const shorter = withParts(result, [{ ...result.parts[0], content: [{ type: 'text', text: 'short' }] }]);
    const encoded = JSON.stringify(
      openaiCodec.encode({ ...t, messages: [withParts(assistant, [...assistant.parts]), shorter] }),
    );
    expect(JSON.parse(encoded)).toEqual([
      { role: 'assistant', content: null, function_call: { name: 'search', arguments: '{}' } },
      { role: 'function', name: 'search', content: 'short' },
    ]);
    expect(encoded).not.toContain('call_legacy');
  });

  it('reads SWE-agent tool messages that name their calls in tool_call_ids', () => {
    const t = expectRoundTrip(openaiCodec, {
      history: [
        {
          role: 'assistant',
          content: 't',
          thought: 't',
          action: 'ls',
          agent: 'main',
          tool_calls: [call('c', 'bash', '{"command":"ls"}')],
          message_type: 'action',
        },
        { role: 'tool', content: 'a b', agent: 'main', message_type: 'observation', tool_call_ids: ['c'] },
      ],
      trajectory: [],
      info: {},
    });
    expect(t.messages[1]?.parts).toMatchObject([{ type: 'tool-result', callId: 'c' }]);
  });

  it('matches a tool message without an id to the next unanswered call, and reports one that answers nothing', () => {
    const { value, issues } = openaiCodec.decode([
      { role: 'assistant', content: null, tool_calls: [call('k', 'f', '{}')] },
      { role: 'tool', content: 'for k' },
      { role: 'tool', content: 'for nobody' },
    ]);
    expect(value.messages.slice(1).map((m) => m.parts[0])).toMatchObject([
      { callId: 'k' },
      { callId: 'result_2' },
    ]);
    expect(issues).toMatchObject([{ code: 'orphan-result', severity: 'warning', path: [2] }]);
  });

  it('splits a typed tool message answering several calls into one result per call', () => {
    const wire = [
      {
        role: 'assistant',
        content: [
          { type: 'tool_call', value: '{"name": "f", "arguments": {"n": 1}}' },
          { type: 'tool_call', value: '{"name": "f", "arguments": {"n": 2}}' },
        ],
      },
      { role: 'tool', content: [{ type: 'text', value: '[{"n": 1, "out": "a"}, {"n": 2, "out": "b, c"}]' }] },
    ];
    const t = expectRoundTrip(openaiCodec, wire);
    expect(t.messages[1]?.parts).toMatchObject([
      { callId: 'call_0_0', content: [{ text: '{"n": 1, "out": "a"}' }] },
      { callId: 'call_0_1', content: [{ text: '{"n": 2, "out": "b, c"}' }] },
    ]);
    expect(verifyTranscript(t)).toEqual([]);
  });

  it('keeps malformed tool_calls entries verbatim in place', () => {
    expectRoundTrip(openaiCodec, [
      { role: 'assistant', content: null, tool_calls: [{ id: 'x' }, call('y', 'f', '{}')] },
    ]);
  });

  it('reads non-string arguments as JSON text and writes them back as the same value', () => {
    const t = expectRoundTrip(openaiCodec, [
      {
        role: 'assistant',
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: { a: [1] } } }],
      },
    ]);
    expect(t.messages[0]?.parts[0]).toMatchObject({ arguments: '{"a":[1]}' });
  });

  it('writes a tool message holding several results as one tool message per result, a failure marked in its text', () => {
    const encoded = openaiCodec.encode({
      messages: [
        {
          role: 'assistant',
          parts: [
            { type: 'tool-call', id: 'a', name: 'f', arguments: '{}' },
            { type: 'tool-call', id: 'b', name: 'f', arguments: '{}' },
          ],
        },
        {
          role: 'tool',
          parts: [
            { type: 'tool-result', callId: 'a', content: [{ type: 'text', text: 'A' }], isError: true },
            { type: 'tool-result', callId: 'b', content: [] },
          ],
        },
      ],
    });
    expect(encoded).toEqual({
      messages: [
        { role: 'assistant', content: null, tool_calls: [call('a', 'f', '{}'), call('b', 'f', '{}')] },
        { role: 'tool', tool_call_id: 'a', content: '[tool error] A' },
        { role: 'tool', tool_call_id: 'b', content: '' },
      ],
    });
    const results = openaiCodec
      .decode(encoded)
      .value.messages.slice(1)
      .flatMap((message) => message.parts);
    expect(results).toEqual([
      expect.objectContaining({ callId: 'a', content: [{ type: 'text', text: 'A' }], isError: true }),
      expect.not.objectContaining({ isError: true }),
    ]);
  });
});
