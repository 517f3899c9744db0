import { describe, expect, it } from 'vitest';
import { decodeShareGpt, encodeShareGpt } from '../../../src/codecs/sharegpt/index.js';
import type { Message } from '../../../src/model/message.js';
import { call, result, tool, user } from '../../transforms/support.js';
import { callPairs } from './pairs.js';

/** A response calling `ids` in that order, then one tool message per result in `answered` order. */
function parallelCalls(ids: readonly string[], answered: readonly string[]): Message[] {
  return [
    user('go'),
    { role: 'assistant', parts: ids.map((id) => call(id, 'bash', { n: id })) },
    ...answered.map((id) => tool(result(id, `out ${id}`))),
    user('and now?'),
  ];
}

describe('ShareGPT results of parallel calls', () => {
  it('are written in the order of their calls, however they were answered, and read back paired', () => {
    const transcript = { messages: parallelCalls(['a', 'b', 'c'], ['c', 'a', 'b']) };
    const decoded = decodeShareGpt(encodeShareGpt(transcript));
    expect(decoded.issues).toEqual([]);
    expect(callPairs(decoded.value).map((pair) => pair.result)).toEqual(['out a', 'out b', 'out c']);
  });

  it('are ordered for a response with 200,000 calls', () => {
    const ids = Array.from({ length: 200_000 }, (_, index) => `c${index}`);
    const encoded = encodeShareGpt({ messages: parallelCalls(ids, [...ids].reverse()) });
    const turns = (encoded as { conversations: { from: string; value: string }[] }).conversations;
    const text = turns.find((turn) => turn.from === 'tool')?.value ?? '';
    const first = text.indexOf('"out c0"');
    const second = text.indexOf('"out c1"');
    const last = text.indexOf('"out c199999"');
    expect(first).toBeGreaterThan(-1);
    expect(first).toBeLessThan(second);
    expect(second).toBeLessThan(last);
  });
});
