import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertTranscript } from '../../../src/codecs/convert/convert-transcript.js';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';
import { anthropicWireProblems, openaiWireProblems } from '../../../src/codecs/provider-rules/index.js';

const id = fc.oneof(
  fc.constantFrom('functions.get_weather:0', 'functions.get_time:1', 'call_1', 'call 2', 'tool-3'),
  fc.string({ minLength: 1, maxLength: 10 }),
);
const text = fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constant('<think>\nhm\n</think>\nok'));

/** One OpenAI turn: a user message, the assistant's answer with calls (ids often reused), their results. */
const turn = fc
  .record({
    user: text,
    answer: fc.option(text, { nil: undefined }),
    reasoning: fc.option(text, { nil: undefined }),
    calls: fc.uniqueArray(id, { maxLength: 3 }),
    failed: fc.boolean(),
  })
  .map(({ user, answer, reasoning, calls, failed }) => [
    { role: 'user', content: user },
    {
      role: 'assistant',
      content: calls.length > 0 && answer === undefined ? null : (answer ?? 'done'),
      ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
      ...(calls.length === 0
        ? {}
        : {
            tool_calls: calls.map((callId) => ({
              id: callId,
              type: 'function',
              function: { name: 'f', arguments: '{"a":1}' },
            })),
          }),
    },
    ...calls.map((callId, index) => ({
      role: 'tool',
      tool_call_id: callId,
      content: failed && index === 0 ? '[tool error] boom' : `result ${index}`,
    })),
  ]);

describe('OpenAI transcripts converted to Anthropic', () => {
  it('gives every valid OpenAI request a valid Anthropic one, whatever its tool ids', () => {
    fc.assert(
      fc.property(
        fc.option(text, { nil: undefined }),
        fc.array(turn, { minLength: 1, maxLength: 4 }),
        (system, turns) => {
          const body = {
            messages: [
              ...(system === undefined ? [] : [{ role: 'system', content: system }]),
              ...turns.flat(),
            ],
          };
          const valid = openaiWireProblems(body, { scope: 'structure' }).length === 0;
          fc.pre(valid);
          const { wire, problems } = convertTranscript(openaiCodec.decode(body).value, 'anthropic');
          expect(problems).toEqual([]);
          expect(anthropicWireProblems(wire)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
