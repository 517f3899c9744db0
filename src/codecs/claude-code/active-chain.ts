import { isJsonObject } from '../../model/json.js';
import { asMessageRecord, hasToolResults, parentOf, responseIdOf, uuidOf } from './records.js';

/**
 * The active conversation of a session file: the indexes of the message records a resume follows, root first.
 * This is the same branch `loadSession` (and so `condense replay`) walks, computed on parsed records:
 *
 * - the leaf is the newest user/assistant record of the main chain in file order, unless the latest
 *   `last-prompt` names a leaf the newest record does not descend from;
 * - the walk follows `parentUuid` to a root, and across a compaction boundary to its `logicalParentUuid` (or, when
 *   that record is not in the file, to the newest main-chain message written before the boundary);
 * - the records of the chain's responses that hang off it (parallel tool calls: one record per block, each result
 *   parented to the record holding its call) are spliced back right after the response's last record on the
 *   chain, so the response stays whole; the codec then orders every response and its results as the file does.
 *
 * Everything else (dead branches after a rewind or `/clear`, records of other sessions) is not part of the
 * conversation. Empty when the file holds no message record.
 */
export function activeChain(records: readonly unknown[]): number[] {
  const index = indexRecords(records);
  const leaf = selectLeaf(index);
  if (leaf === undefined) return [];
  const path = walk(index, leaf);
  const recovered = recoverResponses(index, path, candidatesBelow(index, path));
  return recovered.filter((at) => asMessageRecord(records[at]) !== undefined);
}

interface RecordIndex {
  readonly records: readonly unknown[];
  /** Uuid → record index; when a uuid repeats, the last record wins (a later append is the newer truth). */
  readonly byUuid: ReadonlyMap<string, number>;
  readonly hasMainChain: boolean;
}

function indexRecords(records: readonly unknown[]): RecordIndex {
  const byUuid = new Map<string, number>();
  let hasMainChain = false;
  records.forEach((record, at) => {
    const uuid = uuidOf(record);
    if (uuid === undefined) return;
    byUuid.set(uuid, at);
    if (isMessage(record) && !isSidechain(record)) hasMainChain = true;
  });
  return { records, byUuid, hasMainChain };
}

function isMessage(record: unknown): boolean {
  if (!isJsonObject(record) || uuidOf(record) === undefined) return false;
  return record['type'] === 'user' || record['type'] === 'assistant';
}

function isSidechain(record: unknown): boolean {
  return isJsonObject(record) && record['isSidechain'] === true;
}

function isMainMessage(index: RecordIndex, at: number): boolean {
  const record = index.records[at];
  return (
    isMessage(record) &&
    index.byUuid.get(uuidOf(record) as string) === at &&
    (!isSidechain(record) || !index.hasMainChain)
  );
}

function lookup(index: RecordIndex, uuid: unknown): number | undefined {
  return typeof uuid === 'string' ? index.byUuid.get(uuid) : undefined;
}

function selectLeaf(index: RecordIndex): number | undefined {
  let newest: number | undefined;
  for (let at = index.records.length - 1; at >= 0 && newest === undefined; at--)
    if (isMainMessage(index, at)) newest = at;
  let prompted: number | undefined;
  for (let at = index.records.length - 1; at >= 0 && prompted === undefined; at--) {
    const record = index.records[at];
    if (isJsonObject(record) && record['type'] === 'last-prompt')
      prompted = lookup(index, record['leafUuid']);
  }
  if (prompted === undefined || prompted === newest) return newest;
  if (newest !== undefined && descendsFrom(index, newest, prompted)) return newest;
  return prompted;
}

function descendsFrom(index: RecordIndex, from: number, ancestor: number): boolean {
  let current: number | undefined = from;
  for (let steps = 0; current !== undefined && steps <= index.records.length; steps++) {
    if (current === ancestor) return true;
    const record = index.records[current];
    const parent = parentOf(record);
    current = lookup(index, typeof parent === 'string' ? parent : logicalParentOf(record));
  }
  return false;
}

function logicalParentOf(record: unknown): string | undefined {
  if (!isJsonObject(record) || typeof parentOf(record) === 'string') return undefined;
  const logical = record['logicalParentUuid'];
  return typeof logical === 'string' ? logical : undefined;
}

function isBoundary(record: unknown): boolean {
  return (
    isJsonObject(record) &&
    ((record['type'] === 'system' && record['subtype'] === 'compact_boundary') ||
      typeof record['logicalParentUuid'] === 'string')
  );
}

/** Record indexes from the leaf back to the root (through boundaries), returned root first. */
function walk(index: RecordIndex, leaf: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  let current: number | undefined = leaf;
  while (current !== undefined && !seen.has(current)) {
    seen.add(current);
    out.push(current);
    const record = index.records[current];
    const parent = parentOf(record);
    if (typeof parent === 'string') {
      current = lookup(index, parent);
      continue;
    }
    const logical = logicalParentOf(record);
    if (!isBoundary(record) || logical === undefined) break;
    const target = lookup(index, logical);
    current = target ?? newestMessageBefore(index, current, seen);
  }
  return out.reverse();
}

function newestMessageBefore(
  index: RecordIndex,
  before: number,
  seen: ReadonlySet<number>,
): number | undefined {
  for (let at = before - 1; at >= 0; at--) if (!seen.has(at) && isMainMessage(index, at)) return at;
  return undefined;
}

/**
 * Message records below the chain reached through anything but a user prompt (a prompt under a chain record
 * starts another branch: a rewind). Tool results are followed; what belongs is decided by their content.
 */
function candidatesBelow(index: RecordIndex, path: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  index.records.forEach((record, at) => {
    const parent = lookup(index, parentOf(record));
    if (parent === undefined || index.byUuid.get(uuidOf(record) ?? '') !== at) return;
    const list = children.get(parent);
    if (list === undefined) children.set(parent, [at]);
    else list.push(at);
  });
  const visited = new Set(path);
  const out: number[] = [];
  const queue = [...path];
  for (let head = 0; head < queue.length; head++) {
    for (const child of children.get(queue[head] as number) ?? []) {
      if (visited.has(child)) continue;
      visited.add(child);
      const view = asMessageRecord(index.records[child]);
      if (isMessage(index.records[child])) out.push(child);
      if (view?.type === 'user' && !hasToolResults(view)) continue;
      queue.push(child);
    }
  }
  return out.sort((left, right) => left - right);
}

/**
 * Splices the off-chain records of the chain's responses (same `message.id`) and the tool results parented to
 * any record of those responses back in, right after the response's last record on the chain.
 */
function recoverResponses(
  index: RecordIndex,
  path: readonly number[],
  candidates: readonly number[],
): number[] {
  const anchorOf = new Map<string, number>();
  const responseOfUuid = new Map<string, string>();
  const note = (at: number): string | undefined => {
    const view = asMessageRecord(index.records[at]);
    const id = view === undefined ? undefined : responseIdOf(view);
    if (id !== undefined) responseOfUuid.set(uuidOf(index.records[at]) as string, id);
    return id;
  };
  for (const at of path) {
    const id = note(at);
    if (id !== undefined) anchorOf.set(id, at);
  }
  const inserts = new Map<number, number[]>();
  const taken = new Set<number>();
  for (const at of candidates) {
    const view = asMessageRecord(index.records[at]);
    const id = view === undefined ? undefined : responseIdOf(view);
    const anchor = id === undefined ? undefined : anchorOf.get(id);
    if (anchor === undefined) continue;
    note(at);
    push(inserts, anchor, at);
    taken.add(at);
  }
  for (const at of candidates) {
    const view = asMessageRecord(index.records[at]);
    if (taken.has(at) || view === undefined || !hasToolResults(view)) continue;
    const parent = parentOf(index.records[at]);
    const id = typeof parent === 'string' ? responseOfUuid.get(parent) : undefined;
    const anchor = id === undefined ? undefined : anchorOf.get(id);
    if (anchor !== undefined) push(inserts, anchor, at);
  }
  return path.flatMap((at) => [at, ...(inserts.get(at) ?? [])]);
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
