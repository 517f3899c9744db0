import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parentOf } from '../../../src/codecs/claude-code/records.js';
import { sideRecordsOf } from '../../../src/codecs/claude-code/side-records.js';

/** The owner of a side record by the definition: walk up its parents, one step at a time, to a message record. */
function ownerByWalk(
  records: readonly unknown[],
  messageOf: ReadonlyMap<number, number>,
  uuids: ReadonlyMap<string, number>,
  index: number,
): number | undefined {
  const record = records[index] as Record<string, unknown>;
  if (record['type'] === 'file-history-snapshot' && typeof record['messageId'] === 'string') {
    const target = uuids.get(record['messageId']);
    return target === undefined ? undefined : messageOf.get(target);
  }
  let parent = parentOf(record);
  for (let steps = 0; typeof parent === 'string' && steps < records.length; steps++) {
    const at = uuids.get(parent);
    if (at === undefined) return undefined;
    const owner = messageOf.get(at);
    if (owner !== undefined) return owner;
    parent = parentOf(records[at]);
  }
  return undefined;
}

/** Records with uuids u0…un, each pointing at any record (cycles and dangling parents included), some messages. */
const files = fc.integer({ min: 1, max: 40 }).chain((size) =>
  fc.record({
    parents: fc.array(fc.oneof(fc.integer({ min: 0, max: size + 2 }), fc.constant(-1)), {
      minLength: size,
      maxLength: size,
    }),
    messages: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
    snapshots: fc.array(fc.option(fc.integer({ min: 0, max: size + 2 })), {
      minLength: size,
      maxLength: size,
    }),
  }),
);

describe('side records of a Claude Code file', () => {
  it('belong to the message their parent chain reaches first, for any graph of records', () => {
    fc.assert(
      fc.property(files, ({ parents, messages, snapshots }) => {
        const records = parents.map((parent, index) => ({
          uuid: `u${index}`,
          parentUuid: parent === -1 ? null : `u${parent}`,
          type: snapshots[index] !== null && !messages[index] ? 'file-history-snapshot' : 'progress',
          ...(snapshots[index] === null ? {} : { messageId: `u${snapshots[index]}` }),
        }));
        const uuids = new Map(records.map((record, index) => [record.uuid, index]));
        const groups = messages.flatMap((isMessage, index) => (isMessage ? [[index]] : []));
        const messageOf = new Map(groups.map((group, seq) => [group[0] as number, seq]));
        const side = sideRecordsOf(records, groups, uuids) as { pos: number; owner?: number }[];
        expect(side.map((entry) => entry.pos)).toEqual(
          records.flatMap((_, index) => (messageOf.has(index) ? [] : [index])),
        );
        for (const entry of side) expect(entry.owner).toBe(ownerByWalk(records, messageOf, uuids, entry.pos));
      }),
      { numRuns: 1000 },
    );
  });
});
