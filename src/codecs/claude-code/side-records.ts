import { isJsonObject, type JsonValue } from '../../model/json.js';
import type { RecordGroup } from './merge-assistant.js';
import { parentOf } from './records.js';

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
    let parent = parentOf(record);
    for (let steps = 0; typeof parent === 'string' && steps < records.length; steps++) {
      const at = uuids.get(parent);
      if (at === undefined) return undefined;
      const owner = messageOf.get(at);
      if (owner !== undefined) return owner;
      parent = parentOf(records[at]);
    }
    return undefined;
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
