import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { transcriptArb } from '../transforms/arbitraries.js';
import { assistant, call, result, system, tool, user } from '../transforms/support.js';

const codes = (messages: Message[], provider: 'openai' | 'anthropic' | 'generic' = 'generic') =>
  verifyTranscript({ messages }, { provider }).map((violation) => violation.code);

describe('verifyTranscript', () => {
  it('accepts a well-formed agent transcript for every provider', () => {
    const messages = [
      system('s'),
      user('go'),
      assistant('', call('a', 'bash'), call('b', 'grep')),
      tool(result('a', 'x'), result('b', 'y')),
      assistant('done'),
    ];
    expect(codes(messages, 'openai')).toEqual([]);
    expect(codes(messages, 'anthropic')).toEqual([]);
  });

  it('reports a call without a result, a result without a call, and a result before its call', () => {
    expect(codes([user('go'), assistant('', call('a', 'bash'))])).toEqual(['missing-result']);
    expect(codes([user('go'), tool(result('z', 'x'))])).toEqual(['orphan-result']);
    expect(codes([user('go'), tool(result('a', 'x')), assistant('', call('a', 'bash'))])).toContain(
      'result-before-call',
    );
  });

  it('reports a result that does not directly follow its call, and duplicates', () => {
    expect(
      codes([user('go'), assistant('', call('a', 'bash')), user('wait'), tool(result('a', 'x'))]),
    ).toContain('result-not-adjacent');
    expect(
      codes([user('go'), assistant('', call('a', 'bash')), tool(result('a', 'x'), result('a', 'y'))]),
    ).toContain('duplicate-result');
    expect(
      codes([
        user('go'),
        assistant('', call('a', 'bash')),
        tool(result('a', 'x')),
        assistant('', call('a', 'bash')),
        tool(result('a', 'y')),
      ]),
    ).toContain('duplicate-call-id');
  });

  it('reports empty messages and misplaced parts', () => {
    expect(codes([user('  ')])).toEqual(['empty-message']);
    expect(codes([{ role: 'user', parts: [call('a', 'bash')] }, tool(result('a', 'x'))])).toContain(
      'misplaced-call',
    );
  });

  it('applies Anthropic first-message, alternation and system rules, merging tool results with the next user message', () => {
    expect(codes([system('s'), assistant('hi')], 'anthropic')).toContain('first-not-user');
    expect(codes([user('a'), user('b')], 'anthropic')).toContain('alternation');
    expect(codes([user('a'), assistant('b'), system('late')], 'anthropic')).toContain('system-not-first');
    const toolThenUser = [
      user('go'),
      assistant('', call('a', 'bash')),
      tool(result('a', 'x')),
      user('and now?'),
    ];
    expect(codes(toolThenUser, 'anthropic')).toEqual([]);
    expect(codes([user('a'), user('b')], 'openai')).toEqual([]);
  });

  it('accepts every generated well-formed transcript (property)', () => {
    fc.assert(
      fc.property(transcriptArb, (messages) => {
        const pairCodes = codes(messages).filter((code) => code !== 'empty-message');
        expect(pairCodes).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('notices every removed tool result (property)', () => {
    fc.assert(
      fc.property(transcriptArb, fc.nat(), (messages, pick) => {
        const toolIndices = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
        fc.pre(toolIndices.length > 0);
        const drop = toolIndices[pick % toolIndices.length] as number;
        const broken = messages.filter((_, index) => index !== drop);
        expect(codes(broken)).toContain('missing-result');
      }),
      { numRuns: 200 },
    );
  });

  it('never throws and always returns violations sorted by message index (property)', () => {
    fc.assert(
      fc.property(transcriptArb, fc.array(fc.nat(), { maxLength: 5 }), (messages, drops) => {
        const broken = messages.filter((_, index) => !drops.includes(index));
        for (const provider of ['openai', 'anthropic', 'generic'] as const) {
          const violations = verifyTranscript({ messages: broken }, { provider });
          const indices = violations.map((violation) => violation.index);
          expect(indices).toEqual([...indices].sort((left, right) => left - right));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reports a result as not adjacent exactly when a message other than a tool message sits between it and its call (property)', () => {
    const id = fc.constantFrom('a', 'b', 'c');
    const messageArb = fc.oneof(
      fc.constant(user('go')),
      fc
        .array(id, { maxLength: 2 })
        .map((ids) => assistant('', ...ids.map((callId) => call(callId, 'bash')))),
      fc
        .array(id, { minLength: 1, maxLength: 2 })
        .map((ids) => tool(...ids.map((callId) => result(callId, 'x')))),
    );
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 12 }), (messages) => {
        const callAt = new Map<string, number>();
        messages.forEach((message, index) => {
          for (const part of message.parts)
            if (part.type === 'tool-call' && !callAt.has(part.id)) callAt.set(part.id, index);
        });
        const expected = new Set<string>();
        messages.forEach((message, index) => {
          for (const part of message.parts) {
            if (part.type !== 'tool-result') continue;
            const from = callAt.get(part.callId);
            if (from === undefined || index <= from) continue;
            const between = messages.slice(from + 1, index + 1);
            if (between.some((other) => other.role !== 'tool')) expected.add(`${index} ${part.callId}`);
          }
        });
        const found = verifyTranscript({ messages })
          .filter((violation) => violation.code === 'result-not-adjacent')
          .map((violation) => `${violation.index} ${violation.callId}`);
        expect(new Set(found)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('checks a response with 200,000 parallel calls and their results', () => {
    const ids = Array.from({ length: 200_000 }, (_, index) => `c${index}`);
    const messages = [
      user('go'),
      { role: 'assistant', parts: ids.map((callId) => call(callId, 'bash')) } satisfies Message,
      ...ids.map((callId) => tool(result(callId, 'ok'))),
      user('and now?'),
    ];
    expect(codes(messages)).toEqual([]);
    const late = [...messages.slice(0, -2), user('wait'), ...messages.slice(-2)];
    expect(codes(late)).toEqual(['result-not-adjacent']);
  });
});
