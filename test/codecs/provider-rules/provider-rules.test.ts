import { describe, expect, it } from 'vitest';
import {
  anthropicWireProblems,
  openaiWireProblems,
  wireProblems,
} from '../../../src/codecs/provider-rules/index.js';

const codes = (problems: readonly { code: string }[]) => problems.map((problem) => problem.code);

const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });

describe('OpenAI Chat Completions rules', () => {
  it('accepts a canonical request with paired tool calls', () => {
    const body = {
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'a', content: 'A' },
        { role: 'tool', tool_call_id: 'b', content: 'B' },
        { role: 'assistant', content: 'done' },
      ],
      tools: [],
    };
    expect(openaiWireProblems(body)).toEqual([]);
  });

  it('rejects dataset envelopes and dialect keys, and names them', () => {
    const traj = { history: [{ role: 'user', content: 'q', agent: 'main', message_type: 'observation' }] };
    expect(codes(openaiWireProblems(traj))).toEqual(['unknown-key', 'no-messages']);
    const keyed = { messages: [{ role: 'assistant', content: 'a', reasoning_content: 'r', thought: 't' }] };
    expect(openaiWireProblems(keyed).map((problem) => problem.message)).toEqual([
      expect.stringContaining('"reasoning_content"'),
      expect.stringContaining('"thought"'),
    ]);
  });

  it('finds unanswered calls, orphan results, duplicate ids and images in tool messages', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('a')] },
        { role: 'user', content: 'interrupting' },
        { role: 'tool', tool_call_id: 'a', content: [{ type: 'image_url', image_url: { url: 'x' } }] },
      ],
    };
    expect(codes(openaiWireProblems(body))).toEqual([
      'duplicate-tool-id',
      'unanswered-call',
      'bad-block',
      'orphan-result',
    ]);
  });

  it('tolerates a recorded run that stopped right after a call when asked to', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [call('a')] },
      ],
    };
    expect(codes(openaiWireProblems(body))).toEqual(['unanswered-call']);
    expect(openaiWireProblems(body, { trailingCalls: false })).toEqual([]);
  });
});

describe('Anthropic Messages rules', () => {
  it('rejects tool ids outside ^[a-zA-Z0-9_-]+$ and ids used twice', () => {
    const turn = (id: string) => [
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
    ];
    const body = {
      messages: [{ role: 'user', content: 'q' }, ...turn('functions.f:0'), ...turn('functions.f:0')],
    };
    expect(codes(anthropicWireProblems(body))).toEqual([
      'bad-tool-id',
      'bad-tool-id',
      'bad-tool-id',
      'duplicate-tool-id',
      'bad-tool-id',
    ]);
  });

  it('rejects unsigned thinking, blank text, a first assistant turn and two user turns in a row', () => {
    const body = {
      messages: [
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }] },
        { role: 'user', content: [{ type: 'text', text: ' ' }] },
        { role: 'user', content: 'again' },
      ],
    };
    expect(codes(anthropicWireProblems(body))).toEqual([
      'first-message',
      'unsigned-thinking',
      'empty-content',
      'alternation',
    ]);
  });

  it('has nothing to say about formats without a provider API', () => {
    expect(wireProblems('sharegpt', { conversations: [] })).toEqual([]);
  });
});
