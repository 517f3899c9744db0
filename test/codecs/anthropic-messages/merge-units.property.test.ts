import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Unit } from '../../../src/codecs/anthropic-messages/encode-unit.js';
import { mergeUnits } from '../../../src/codecs/anthropic-messages/merge-units.js';
import { referenceMergeUnits } from './merge-units-reference.js';

const wireMessages = [{ role: 'user' }, { role: 'assistant' }];

/** `arbitrary`'s value `present` times in `outOf`, else undefined. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, present: number, outOf: number) {
  return fc.oneof(
    { arbitrary: fc.constant(undefined), weight: outOf - present },
    { arbitrary, weight: present },
  );
}

// Units as the encoder makes them: blocks with their kinds, from a few wire messages (so neighbours often share a
// group), with or without a recorded order (matching the blocks or not), intact, extra, unknown role or verbatim.
const unitArb: fc.Arbitrary<Unit> = fc
  .record({
    role: fc.constantFrom('user' as const, 'user' as const, 'assistant' as const),
    kinds: fc.array(fc.constantFrom('t', 'u'), { maxLength: 4 }).map((kinds) => kinds.join('')),
    group: sometimes(fc.integer({ min: 0, max: 2 }), 2, 3),
    order: sometimes(
      fc.array(fc.constantFrom('t', 'u'), { maxLength: 6 }).map((kinds) => kinds.join('')),
      1,
      2,
    ),
    split: fc.integer({ min: 1, max: 3 }),
    members: fc.integer({ min: 1, max: 2 }),
    intact: sometimes(fc.constantFrom(...wireMessages), 1, 2),
    extra: sometimes(fc.constantFrom({ id: 'a' }, { id: 'b' }), 1, 3),
    unknownRole: sometimes(fc.constant(true), 1, 5),
    // Rare, or few units would ever merge.
    verbatim: sometimes(fc.constant('not a message'), 1, 10),
    id: fc.integer(),
  })
  .map(({ kinds, id, ...rest }) => {
    const unit: Record<string, unknown> = {
      ...rest,
      kinds,
      blocks: [...kinds].map((kind, index) => ({ kind, id, index })),
    };
    for (const key of Object.keys(unit)) if (unit[key] === undefined) delete unit[key];
    return unit as unknown as Unit;
  });

describe('mergeUnits', () => {
  it('merges exactly as the version that merged units pairwise', () => {
    fc.assert(
      fc.property(fc.array(unitArb, { maxLength: 12 }), (units) => {
        expect(mergeUnits(units)).toEqual(referenceMergeUnits(units));
      }),
      { numRuns: 3000 },
    );
  });

  it('merges a run of 200,000 units without exceeding the call stack', () => {
    const units: Unit[] = Array.from({ length: 200_000 }, (_, index) => ({
      role: 'user',
      blocks: [{ type: 'tool_result', tool_use_id: `t${index}` }],
      kinds: 't',
      split: 1,
      members: 1,
    }));
    const [merged, ...rest] = mergeUnits(units);
    expect(rest).toEqual([]);
    expect(merged?.blocks).toHaveLength(200_000);
    expect(merged?.members).toBe(200_000);
  });
});
