import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicCodec } from '../../../src/codecs/anthropic-messages/index.js';
import { applyToolIds, planToolIds } from '../../../src/codecs/portable/tool-ids.js';
import { ANTHROPIC_TOOL_ID } from '../../../src/codecs/provider-rules/anthropic-rules.js';
import { anthropicWireProblems } from '../../../src/codecs/provider-rules/index.js';
import type { Message } from '../../../src/model/message.js';
import { referencePlanToolIds } from './tool-ids-reference.js';

function turn(id: string, city: string): Message[] {
  return [
    { role: 'user', parts: [{ type: 'text', text: `Weather in ${city}?` }] },
    {
      role: 'assistant',
      parts: [{ type: 'tool-call', id, name: 'get_weather', arguments: JSON.stringify({ city }) }],
    },
    {
      role: 'tool',
      parts: [{ type: 'tool-result', callId: id, content: [{ type: 'text', text: `sunny in ${city}` }] }],
    },
  ];
}

/** Each call's name and arguments with the text of the result that answers it (by id, latest call first). */
function answers(messages: readonly Message[]): string[] {
  const pending = new Map<string, string>();
  const out: string[] = [];
  for (const message of messages)
    for (const part of message.parts) {
      if (part.type === 'tool-call') pending.set(part.id, part.arguments);
      if (part.type === 'tool-result')
        out.push(
          `${pending.get(part.callId)} → ${part.content.map((item) => (item.type === 'text' ? item.text : '')).join('')}`,
        );
    }
  return out;
}

describe('tool ids for providers that restrict them', () => {
  it('maps an OpenAI-style id reused across turns to valid unique ids, each result to its own call', () => {
    const messages = [
      ...turn('functions.get_weather:0', 'Paris'),
      ...turn('functions.get_weather:0', 'Oslo'),
    ];
    const plan = planToolIds(messages, ANTHROPIC_TOOL_ID);
    const mapped = applyToolIds(messages, plan);
    const ids = mapped.flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.id] : [])),
    );
    expect(ids).toEqual(['functions_get_weather_0', 'functions_get_weather_0_2']);
    expect(answers(mapped)).toEqual(answers(messages));
    expect(plan.rewrittenCalls).toBe(2);
    expect(plan.original.get('functions_get_weather_0_2')).toBe('functions.get_weather:0');
    const wire = anthropicCodec.encode({ messages });
    expect(anthropicWireProblems(wire)).toEqual([]);
  });

  it('keeps valid ids used once, and the same message objects when nothing changes', () => {
    const messages = [...turn('toolu_1', 'Paris'), ...turn('toolu_2', 'Oslo')];
    const plan = planToolIds(messages, ANTHROPIC_TOOL_ID);
    expect(plan.ids.size).toBe(0);
    expect(applyToolIds(messages, plan)).toBe(messages);
  });

  it('never gives a rewritten call an id another call already has', () => {
    const messages = [...turn('a.b', 'Paris'), ...turn('a_b', 'Oslo')];
    const ids = applyToolIds(messages, planToolIds(messages, ANTHROPIC_TOOL_ID)).flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.id] : [])),
    );
    expect(new Set(ids).size).toBe(2);
    expect(ids[1]).toBe('a_b');
  });

  it('gives a result written before its call the id its call gets, so the two still name each other', () => {
    const [question, call, result] = turn('call:1', 'Paris') as [Message, Message, Message];
    const messages = [question, result, call, result];
    const mapped = applyToolIds(messages, planToolIds(messages, ANTHROPIC_TOOL_ID));
    const ids = mapped.flatMap((message) =>
      message.parts.flatMap((part) =>
        part.type === 'tool-call' ? [part.id] : part.type === 'tool-result' ? [part.callId] : [],
      ),
    );
    expect(ids).toEqual(['call_1', 'call_1', 'call_1']);
  });

  it('gives any ids valid unique replacements, pairs kept, and is a fixed point on its own output', () => {
    const id = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('functions.f:0', 'call_1', 'x y', ''));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(id, fc.string({ maxLength: 5 })), { minLength: 1, maxLength: 6 }),
        (turns) => {
          const messages = turns.flatMap(([callId, city]) => turn(callId, city));
          const mapped = applyToolIds(messages, planToolIds(messages, ANTHROPIC_TOOL_ID));
          const ids = mapped.flatMap((message) =>
            message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.id] : [])),
          );
          expect(ids.every((value) => ANTHROPIC_TOOL_ID.test(value))).toBe(true);
          expect(new Set(ids).size).toBe(ids.length);
          expect(answers(mapped)).toEqual(answers(messages));
          expect(planToolIds(mapped, ANTHROPIC_TOOL_ID).ids.size).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('plans exactly the ids the search from _2 at every call planned (property)', () => {
    // Ids that collide once cleaned, that look like another id's suffix, and that repeat across turns.
    const id = fc.constantFrom('a', 'a_2', 'a.2', 'a_3', 'a:', 'a_', '', 'toolu', 'toolu_2', 'b c', 'b_c');
    const part = fc.oneof(
      id.map((callId) => ({ type: 'tool-call' as const, id: callId, name: 'f', arguments: '{}' })),
      id.map((callId) => ({ type: 'tool-result' as const, callId, content: [] })),
    );
    const message = fc.record({
      role: fc.constantFrom('assistant' as const, 'tool' as const),
      parts: fc.array(part, { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 12 }),
        fc.array(fc.boolean(), { maxLength: 12 }),
        (messages, kept) => {
          const keep = (candidate: Message) =>
            kept[messages.indexOf(candidate as (typeof messages)[number])] === true;
          const plan = planToolIds(messages, ANTHROPIC_TOOL_ID, keep);
          const reference = referencePlanToolIds(messages, ANTHROPIC_TOOL_ID, keep);
          expect([...plan.ids]).toEqual([...reference.ids]);
          expect([...plan.original]).toEqual([...reference.original]);
          expect(plan.rewrittenCalls).toBe(reference.rewrittenCalls);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives 50,000 calls reusing one id their own ids', () => {
    const messages = Array.from({ length: 50_000 }, (_, index) => turn('call:1', `c${index}`)).flat();
    const plan = planToolIds(messages, ANTHROPIC_TOOL_ID);
    expect(plan.rewrittenCalls).toBe(50_000);
    expect(new Set(plan.ids.values()).size).toBe(50_000);
  });
});
