import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { DEFAULT_EMPTY_ASSISTANT_TEXT, sanitizeToolPairs } from '../../src/transforms/sanitize-tool-pairs.js';
import { assistant, call, deepFreeze, PAIR_RULES, result, tool, user } from './support.js';

function pairViolations(messages: readonly Message[]): string[] {
  return verifyTranscript({ messages }, { provider: 'openai' })
    .filter((violation) => PAIR_RULES.has(violation.code))
    .map((violation) => violation.code);
}

describe('sanitizeToolPairs', () => {
  it('removes results whose call is gone, and tool messages left empty', () => {
    const messages = deepFreeze([
      user('go'),
      tool(result('gone', 'x')),
      assistant('', call('a', 'Read')),
      tool(result('a', 'ok'), result('gone', 'y')),
    ]);
    const out = sanitizeToolPairs(messages);
    expect(out.removedResults).toBe(2);
    expect(out.removedMessages).toBe(1);
    expect(out.messages).toHaveLength(3);
    expect(out.messages[2]?.parts).toEqual([result('a', 'ok')]);
    expect(pairViolations(out.messages)).toEqual([]);
  });

  it('strips calls without a result, and gives an emptied assistant message a short text (Hermes)', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('a', 'Read'), call('b', 'Read')),
      tool(result('a', 'ok')),
      assistant('', call('c', 'Bash')),
      user('next'),
    ]);
    const out = sanitizeToolPairs(messages);
    expect(out.removedCalls).toBe(2);
    expect(out.messages[1]?.parts.map((part) => part.type)).toEqual(['tool-call']);
    expect(out.messages[3]?.parts).toEqual([{ type: 'text', text: DEFAULT_EMPTY_ASSISTANT_TEXT }]);
    expect(pairViolations(out.messages)).toEqual([]);
  });

  it('answers calls without a result with a stub saying where the output went', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('a', 'Read'), call('b', 'Read')),
      tool(result('a', 'ok')),
      user('next'),
    ]);
    const out = sanitizeToolPairs(messages, { orphanCalls: 'stub', stubText: 'see checkpoint' });
    expect(out.stubbed).toBe(1);
    expect(out.removedCalls).toBe(0);
    expect(out.messages[3]).toEqual(
      tool({ type: 'tool-result', callId: 'b', content: [{ type: 'text', text: 'see checkpoint' }] }),
    );
    expect(out.messages[1]).toBe(messages[1]);
    expect(pairViolations(out.messages)).toEqual([]);
  });

  it('removes results that do not directly follow their call, and second answers', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('a', 'Read')),
      user('interrupt'),
      tool(result('a', 'late')),
      assistant('', call('b', 'Read')),
      tool(result('b', 'one')),
      tool(result('b', 'two')),
    ]);
    const out = sanitizeToolPairs(messages);
    expect(out.removedResults).toBe(2);
    expect(pairViolations(out.messages)).toEqual([]);
  });

  it('keeps reasoning in an emptied assistant message and adds visible text after it', () => {
    const reasoning = { type: 'reasoning' as const, text: 'hmm' };
    const messages = deepFreeze([user('go'), assistant('', reasoning, call('a', 'Read')), user('next')]);
    const out = sanitizeToolPairs(messages);
    expect(out.messages[1]?.parts).toEqual([reasoning, { type: 'text', text: DEFAULT_EMPTY_ASSISTANT_TEXT }]);
  });

  it('pairs by position when a transcript reuses call ids across turns', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('same', 'Read')),
      tool(result('same', 'one')),
      assistant('', call('same', 'Read')),
      tool(result('same', 'two')),
    ]);
    const out = sanitizeToolPairs(messages);
    expect(out.messages).toBe(messages);
  });

  it('drops a repeated call id inside one message', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('x', 'Read'), call('x', 'Read')),
      tool(result('x', 'r')),
    ]);
    const out = sanitizeToolPairs(messages, { orphanCalls: 'stub' });
    expect(out.removedCalls).toBe(1);
    expect(pairViolations(out.messages)).toEqual([]);
  });

  it('returns the very same array and messages when the transcript is already valid', () => {
    const messages = deepFreeze([
      user('go'),
      assistant('', call('a', 'Read')),
      tool(result('a', 'ok')),
      assistant('done'),
    ]);
    expect(sanitizeToolPairs(messages).messages).toBe(messages);
    expect(sanitizeToolPairs(messages, { orphanCalls: 'stub' }).messages).toBe(messages);
  });
});
