import { describe, expect, it } from 'vitest';
import { decodeShareGpt, encodeShareGpt, sharegptCodec } from '../../../src/codecs/sharegpt/index.js';
import { withParts } from '../../../src/model/message-helpers.js';
import { stripOrigins } from '../../../src/model/origins.js';
import type { Part } from '../../../src/model/part.js';
import { verifyTranscript } from '../../../src/model/verify.js';

/** A trajectory entry as Hermes' `_convert_to_trajectory_format` writes one (Python json.dumps layout). */
const hermesEntry = {
  conversations: [
    { from: 'system', value: 'You are a function calling AI model. <tools>\n[]\n</tools>' },
    { from: 'human', value: 'What is in /tmp and how big is it?' },
    {
      from: 'gpt',
      value:
        '<think>\nI should list the directory and measure it.\n</think>\nLet me look.\n<tool_call>\n{"name": "terminal", "arguments": {"command": "ls /tmp"}}\n</tool_call>\n<tool_call>\n{"name": "terminal", "arguments": {"command": "du -sh /tmp", "timeout": 30}}\n</tool_call>',
    },
    {
      from: 'tool',
      value:
        '<tool_response>\n{"tool_call_id": "call_1", "name": "terminal", "content": {"output": "a.txt\\nb.txt", "exit_code": 0}}\n</tool_response>\n<tool_response>\n{"tool_call_id": "call_2", "name": "terminal", "content": "4.0K\\t/tmp"}\n</tool_response>',
    },
    { from: 'gpt', value: '<think>\n</think>\nTwo files, 4 KB in total.' },
  ],
  timestamp: '2026-04-13T21:38:56.194348',
  model: 'k2p5',
  completed: true,
};

describe('sharegpt codec on Hermes trajectories', () => {
  it('parses <think>, <tool_call> and <tool_response> into reasoning, calls and paired results', () => {
    const { value, issues } = decodeShareGpt(hermesEntry);
    expect(issues).toEqual([]);
    const [system, user, call, results, answer] = value.messages;
    expect([system?.role, user?.role, call?.role, results?.role, answer?.role]).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(call?.parts.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call', 'tool-call']);
    expect(call?.parts[0]).toMatchObject({
      type: 'reasoning',
      text: 'I should list the directory and measure it.',
    });
    expect(call?.parts[1]).toMatchObject({ type: 'text', text: 'Let me look.' });
    expect(call?.parts[3]).toMatchObject({
      name: 'terminal',
      arguments: '{"command": "du -sh /tmp", "timeout": 30}',
    });
    const ids = call?.parts.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
    expect(results?.parts.map((part) => (part.type === 'tool-result' ? part.callId : undefined))).toEqual(
      ids,
    );
    expect(results?.parts[0]).toMatchObject({
      name: 'terminal',
      content: [{ type: 'text', text: '{"output": "a.txt\\nb.txt", "exit_code": 0}' }],
    });
    expect(results?.parts[1]).toMatchObject({ content: [{ type: 'text', text: '4.0K\t/tmp' }] });
    expect(answer?.parts).toEqual([
      { type: 'reasoning', text: '' },
      { type: 'text', text: 'Two files, 4 KB in total.' },
    ]);
    expect(verifyTranscript(value)).toEqual([]);
  });

  it('re-encodes every value exactly from parts and never writes the synthesized call ids', () => {
    const { value } = decodeShareGpt(hermesEntry);
    expect(encodeShareGpt(value)).toBe(hermesEntry);
    const again = encodeShareGpt(stripOrigins(value));
    expect(again).toEqual(hermesEntry);
    expect(JSON.stringify(again)).not.toContain('sharegpt-call');
  });

  it('keeps the raw text of untouched pieces when one call changes, and writes the changed one the Hermes way', () => {
    const { value } = decodeShareGpt(hermesEntry);
    const message = value.messages[2];
    if (message === undefined) throw new Error('missing message');
    const parts = message.parts.map(
      (part, index): Part =>
        index === 3 && part.type === 'tool-call' ? { ...part, arguments: '{"command":"du -s /tmp"}' } : part,
    );
    const changed = {
      ...value,
      messages: value.messages.map((item) => (item === message ? withParts(message, parts) : item)),
    };
    const entry = encodeShareGpt(changed) as { conversations: { value: string }[] };
    expect(entry.conversations[2]?.value).toBe(
      '<think>\nI should list the directory and measure it.\n</think>\nLet me look.\n<tool_call>\n{"name": "terminal", "arguments": {"command": "ls /tmp"}}\n</tool_call>\n<tool_call>\n{"name": "terminal", "arguments": {"command":"du -s /tmp"}}\n</tool_call>',
    );
    expect(entry.conversations[3]).toBe(hermesEntry.conversations[3]);
  });

  it('writes transcripts from other formats as Hermes turns, tool results of one call group in one tool turn', () => {
    const entry = encodeShareGpt({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'weather?' }] },
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', text: 'two cities', signature: 'sig' },
            { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{"city": "Paris"}' },
            { type: 'tool-call', id: 'c2', name: 'get_weather', arguments: '{"city":"Rome"}' },
          ],
        },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: '{"temp": 21}' }] }],
        },
        {
          role: 'tool',
          parts: [
            { type: 'tool-result', callId: 'c2', content: [{ type: 'text', text: 'sunny' }], isError: false },
          ],
        },
        { role: 'assistant', parts: [{ type: 'text', text: 'Warm in both.' }] },
      ],
    });
    expect(entry).toEqual({
      conversations: [
        { from: 'human', value: 'weather?' },
        {
          from: 'gpt',
          value:
            '<think>\ntwo cities\n</think>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city":"Rome"}}\n</tool_call>',
        },
        {
          from: 'tool',
          value:
            '<tool_response>\n{"name": "get_weather", "content": {"temp": 21}}\n</tool_response>\n<tool_response>\n{"name": "get_weather", "content": "sunny"}\n</tool_response>',
        },
        { from: 'gpt', value: 'Warm in both.' },
      ],
    });
    const back = decodeShareGpt(entry).value;
    expect(verifyTranscript(back)).toEqual([]);
    expect(back.messages[1]?.parts[2]).toMatchObject({ name: 'get_weather', arguments: '{"city":"Rome"}' });
  });

  it('reports results without a pending call and calls without a result, without throwing', () => {
    const { value, issues } = decodeShareGpt({
      conversations: [
        { from: 'tool', value: '<tool_response>\nlost\n</tool_response>' },
        { from: 'gpt', value: '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>' },
        { from: 'gpt', value: '<tool_call>\nnot json\n</tool_call>' },
        { from: 'bing', value: 'hello' },
        { from: 'human' },
      ],
    });
    expect(issues.map((issue) => issue.code)).toEqual([
      'orphan-result',
      'invalid-arguments',
      'unknown-role',
      'invalid-shape',
      'missing-result',
    ]);
    expect(value.messages[2]?.parts).toEqual([{ type: 'text', text: '<tool_call>\nnot json\n</tool_call>' }]);
    expect(sharegptCodec.detect(hermesEntry)).toBe(2);
    expect(sharegptCodec.detect({ messages: [] })).toBe(0);
  });

  it('reads a value of 200,000 unclosed tags as text, exactly, in one pass', () => {
    // A regex searched to the end of the value for each unclosed tag: quadratic, minutes at this size.
    const count = 200_000;
    const gpt = `${'<tool_call> a '.repeat(count)}<think>plan</think> done`;
    const tool = '<tool_response> b '.repeat(count);
    const entry = {
      conversations: [
        { from: 'human', value: 'go' },
        { from: 'gpt', value: gpt },
        { from: 'tool', value: tool },
      ],
    };
    const { value } = decodeShareGpt(entry);
    expect(value.messages[1]?.parts.map((part) => part.type)).toEqual(['text', 'reasoning', 'text']);
    expect(encodeShareGpt(value)).toEqual(entry);
  });

  it('keeps an entry without conversations as it is', () => {
    const { value, issues } = decodeShareGpt({ id: 7 });
    expect(issues[0]?.code).toBe('invalid-shape');
    expect(encodeShareGpt(value)).toEqual({ id: 7 });
  });
});
