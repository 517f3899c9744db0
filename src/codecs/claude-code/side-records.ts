import { isJsonObject, type JsonValue } from '../../model/json.js';
import type { RecordGroup } from './merge-assistant.js';
import { parentOf } from './records.js';

/** Marks the records of a parent-chain walk still in progress (owners are message indices, never negative). */
const WALKING = -1;

/**
 * The records that are not part of any message, with their file position, whether their `parentUuid` points
 * outside the file (`external`), and the message they belong to (`owner`, the message's index in decode order):
 * the first message record up their `parentUuid` chain, or the message a `file-history-snapshot` names. A record
 * with an owner is dropped on encode when its owner is; a record without one is always kept.
 */
export function sideRecordsOf(
  records: readonly unknown[],
  groups: readonly RecordGroup[],
  uuids: ReadonlyMap<string, number>,
): JsonValue[] {
  const messageOf = new Map<number, number>();
  groups.forEach((group, seq) => {
    for (const index of group) messageOf.set(index, seq);
  });
  // What a walk up the parent chain finds from each record it passed (never a message record), so that a run of
  // side records chained to each other is walked once, not once per record of the run. Records of the walk in
  // progress hold WALKING: meeting one again is a cycle, which has no owner.
  const above = new Map<number, number | undefined>();
  const ownerAbove = (start: unknown): number | undefined => {
    const passed: number[] = [];
    let parent = start;
    let owner: number | undefined;
    while (typeof parent === 'string') {
      const at = uuids.get(parent);
      if (at === undefined) break;
      owner = messageOf.get(at);
      if (owner !== undefined) break;
      if (above.has(at)) {
        const known = above.get(at);
        owner = known === WALKING ? undefined : known;
        break;
      }
      above.set(at, WALKING);
      passed.push(at);
      parent = parentOf(records[at]);
    }
    for (const at of passed) above.set(at, owner);
    return owner;
  };
  const ownerOf = (index: number): number | undefined => {
    const record = records[index];
    if (
      isJsonObject(record) &&
      record['type'] === 'file-history-snapshot' &&
      typeof record['messageId'] === 'string'
    ) {
      const target = uuids.get(record['messageId']);
      return target === undefined ? undefined : messageOf.get(target);
    }
    return ownerAbove(parentOf(record));
  };
  const side: JsonValue[] = [];
  records.forEach((record, index) => {
    if (messageOf.has(index)) return;
    const parent = parentOf(record);
    const owner = ownerOf(index);
    side.push({
      pos: index,
      record: (record ?? null) as JsonValue,
      ...(owner === undefined ? {} : { owner }),
      ...(typeof parent === 'string' && !uuids.has(parent) ? { external: true } : {}),
    });
  });
  return side;
}
