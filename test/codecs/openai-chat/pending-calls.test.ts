import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PendingCalls } from '../../../src/codecs/openai-chat/pending-calls.js';

type Step =
  | { readonly kind: 'reset'; readonly ids: readonly string[] }
  | { readonly kind: 'answer'; readonly id: string }
  | { readonly kind: 'take' };

const id = fc.constantFrom('a', 'b', 'c', 'd');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.array(id, { maxLength: 6 }).map((ids) => ({ kind: 'reset' as const, ids })),
  id.map((answered) => ({ kind: 'answer' as const, id: answered })),
  fc.constant({ kind: 'take' as const }),
);

describe('PendingCalls', () => {
  it('answers as a list filtered by id and shifted from the front would (duplicate ids included)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const pending = new PendingCalls();
        let model: string[] = [];
        for (const next of steps) {
          if (next.kind === 'reset') {
            pending.reset(next.ids);
            model = [...next.ids];
          } else if (next.kind === 'answer') {
            pending.answer(next.id);
            model = model.filter((other) => other !== next.id);
          } else expect(pending.take()).toBe(model.shift());
          expect(pending.size).toBe(model.length);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps up with 200,000 calls answered one by one and in order', () => {
    const ids = Array.from({ length: 200_000 }, (_, index) => `call_${index}`);
    const pending = new PendingCalls();
    pending.reset(ids);
    for (let index = 0; index < ids.length; index += 2) pending.answer(`call_${index}`);
    expect(pending.size).toBe(100_000);
    expect(pending.take()).toBe('call_1');
    expect(pending.take()).toBe('call_3');
  });
});
