import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import { encodeBlock } from './blocks.js';
import { CC, parentOf } from './records.js';

/** A record as it will be written, with its position in the file. */
export interface PlannedRecord {
  readonly pos: number;
  record: unknown;
  /** The record's `parentUuid` points outside the file (kept as is). */
  readonly external: boolean;
}

/** A record of a kept message that is no longer written (its parts moved or were removed), and its link. */
export interface DroppedRecord {
  readonly uuid: string;
  readonly parent: string | null | undefined;
}

/** How a message is written: from its kept records, or as a new record. */
export type Plan =
  | {
      readonly kind: 'kept';
      readonly seq: number;
      readonly records: PlannedRecord[];
      /** Records of the message not written, so links through them can be followed to a written ancestor. */
      readonly dropped?: readonly DroppedRecord[];
    }
  | { readonly kind: 'new'; readonly message: Message; pos: number; records: PlannedRecord[] };

interface RecordEntry {
  readonly pos: number;
  readonly record: JsonObject;
  readonly shape: 'string' | 'array';
  readonly external: boolean;
  /** The record had no blocks when it was read. */
  readonly empty: boolean;
}

function entriesOf(message: Message): { seq: number; entries: RecordEntry[] } | undefined {
  const own = message.meta?.codec?.[CC];
  if (own === undefined || typeof own['seq'] !== 'number' || !Array.isArray(own['records'])) return undefined;
  const entries: RecordEntry[] = [];
  for (const item of own['records'] as readonly JsonValue[]) {
    if (!isJsonObject(item) || typeof item['pos'] !== 'number' || !isJsonObject(item['record']))
      return undefined;
    const shape = item['shape'] === 'string' ? 'string' : 'array';
    entries.push({
      pos: item['pos'],
      record: item['record'],
      shape,
      external: item['external'] === true,
      empty: item['empty'] === true,
    });
  }
  return entries.length === 0 ? undefined : { seq: own['seq'], entries };
}

/**
 * Plans the records of one message. A message decoded from Claude Code keeps its records: the very objects read
 * while its parts are untouched (per record, by part identity), otherwise rebuilt from its envelope and the parts
 * that came from it (parts carry their record index; new parts join the record of the part before them; a record left without
 * parts is dropped, unless it is the only one or was read without blocks). A message with no records, or whose role no longer fits them,
 * is new.
 */
export function planMessage(message: Message): Plan {
  const found = entriesOf(message);
  const fresh: Plan = { kind: 'new', message, pos: 0, records: [] };
  if (found === undefined) return fresh;
  const { seq, entries } = found;
  const first = entries[0] as RecordEntry;
  if ((first.record['type'] === 'assistant') !== (message.role === 'assistant')) return fresh;
  const origin = message.meta?.origin;
  const wire =
    origin?.format === 'claude-code' && Array.isArray(origin.wire) ? (origin.wire as unknown[]) : undefined;
  const originParts = wire !== undefined && wire.length === entries.length ? origin?.parts : undefined;
  if (originParts !== undefined && originParts === message.parts) {
    return {
      kind: 'kept',
      seq,
      records: entries.map((entry, index) => ({
        pos: entry.pos,
        record: wire?.[index],
        external: entry.external,
      })),
    };
  }
  const buckets = distribute(message.parts, entries.length);
  const before = originParts === undefined ? undefined : distribute(originParts, entries.length);
  const empty = buckets.every((bucket) => bucket.length === 0);
  const records: PlannedRecord[] = [];
  const dropped: DroppedRecord[] = [];
  entries.forEach((entry, index) => {
    const parts = buckets[index] as Part[];
    if (parts.length === 0 && !entry.empty && !(empty && index === 0)) {
      const uuid = entry.record['uuid'];
      if (typeof uuid === 'string') dropped.push({ uuid, parent: parentOf(entry.record) });
      return;
    }
    const old = before?.[index];
    const same =
      old !== undefined && old.length === parts.length && old.every((part, at) => part === parts[at]);
    const record = same ? wire?.[index] : rebuild(entry, parts);
    records.push({ pos: entry.pos, record, external: entry.external });
  });
  return { kind: 'kept', seq, records, dropped };
}

/**
 * Assigns parts to records so that reading the records in order gives the parts in order: a part read from a
 * record goes back to it unless an earlier part already went to a later record; a new part joins the record of
 * the part before it (a leading one, the record of the first part read).
 */
function distribute(parts: readonly Part[], count: number): Part[][] {
  const buckets: Part[][] = Array.from({ length: count }, () => []);
  const tags = parts.map((part) => recordTag(part, count));
  let current: number | undefined;
  for (const [at, part] of parts.entries()) {
    const tag = tags[at];
    if (tag !== undefined) current = Math.max(current ?? tag, tag);
    else current ??= tags.find((found) => found !== undefined) ?? count - 1;
    buckets[current]?.push(part);
  }
  return buckets;
}

function recordTag(part: Part, count: number): number | undefined {
  const own = part.meta?.[CC];
  const tag = isJsonObject(own) ? own['record'] : undefined;
  return typeof tag === 'number' && tag >= 0 && tag < count ? tag : undefined;
}

function rebuild(entry: RecordEntry, parts: readonly Part[]): JsonObject {
  const only = parts[0];
  let content: JsonValue;
  if (entry.shape === 'string' && parts.length === 0) content = '';
  else if (entry.shape === 'string' && parts.length === 1 && only?.type === 'text') content = only.text;
  else {
    content = parts.map(encodeBlock);
  }
  const message = isJsonObject(entry.record['message']) ? entry.record['message'] : {};
  return { ...entry.record, message: { ...message, content } };
}
