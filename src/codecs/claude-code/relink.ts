import { runStarts } from '../../model/arrays.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Plan, PlannedRecord } from './plan-message.js';
import { parentOf, uuidOf } from './records.js';
import { synthesizeRecord } from './synthesize-record.js';
import { writtenAncestor } from './written-ancestor.js';

/** A record that carries no message, as kept in the transcript's codec meta. */
export interface SideEntry {
  readonly pos: number;
  readonly record: unknown;
  readonly owner?: number;
  readonly external: boolean;
}

/** Options of {@link linkRecords}. */
export interface LinkOptions {
  /** The transcript still has exactly the decoded messages in their order: parent links are kept as read. */
  readonly unchanged: boolean;
  readonly sessionId: () => string;
}

/**
 * Decides every record's `parentUuid` and synthesizes the records of new messages, walking messages in order.
 *
 * - Side records whose owner message is gone are dropped. A kept record (side or message) whose parent is no
 *   longer written is linked to its nearest written ancestor, found by following the links of the records that
 *   were dropped (a merged response loses records between its blocks and the progress records under them), so a
 *   link only ever points further back in the chain and never makes a cycle.
 * - When the transcript is unchanged, nothing else moves. Otherwise the first record of each message must lead
 *   back to the message before it — through side records, across a compaction boundary to its
 *   `logicalParentUuid`, or to an earlier message when only tool messages lie between (parallel results hang off
 *   their call's record); if it does not, it is relinked to the last record of the previous message (a boundary
 *   on the way gets that record as its logical parent instead). So the chain from the last message back to the
 *   root runs through every message in transcript order, and records off it (dead branches) stay off it.
 *
 * Relinked records are copies; untouched records stay the very objects read.
 */
export function linkRecords(
  plans: readonly Plan[],
  side: readonly SideEntry[],
  options: LinkOptions,
): PlannedRecord[] {
  const keptSeqs = new Set(plans.flatMap((plan) => (plan.kind === 'kept' ? [plan.seq] : [])));
  const keptSide = side.filter((entry) => entry.owner === undefined || keptSeqs.has(entry.owner));
  const written = new Set<string>();
  const messageOf = new Map<string, number>();
  const gone = new Map<string, string | null | undefined>();
  plans.forEach((plan, index) => {
    for (const item of plan.records) addUuid(item.record, written, messageOf, index);
    if (plan.kind === 'kept')
      for (const dropped of plan.dropped ?? []) gone.set(dropped.uuid, dropped.parent);
  });
  for (const entry of keptSide) addUuid(entry.record, written);
  const ancestor = writtenAncestor(gone, written);
  const sideRecords = linkSide(keptSide, plans, written, ancestor);
  const sideByUuid = new Map<string, PlannedRecord>();
  for (const item of sideRecords) {
    const uuid = uuidOf(item.record);
    if (uuid !== undefined) sideByUuid.set(uuid, item);
  }
  // Whether only tool messages lie between two messages, answered at once: a response with thousands of parallel
  // calls has thousands of results to link back to it.
  const runs = runStarts(plans, isToolPlan);
  const near = keptNeighbours(plans);
  const dangling = (parent: string | null | undefined, external: boolean): boolean =>
    typeof parent === 'string' && !external && !written.has(parent);
  const reaches = (start: string | null | undefined, startExternal: boolean, index: number): Reach => {
    let parent = start;
    let external = startExternal;
    for (let steps = 0; steps <= sideByUuid.size + 1; steps++) {
      if (typeof parent !== 'string' || external) return index === 0 ? 'yes' : 'no';
      const target = messageOf.get(parent);
      if (target !== undefined) return target < index && onlyToolsBetween(runs, target, index) ? 'yes' : 'no';
      const next = sideByUuid.get(parent);
      if (next === undefined) return 'no';
      if (logicalParentOf(next.record) !== undefined && parentOf(next.record) === null) return next;
      parent = parentOf(next.record);
      external = next.external;
    }
    return 'no';
  };
  let tail: string | null = null;
  plans.forEach((plan, index) => {
    if (plan.kind === 'new') {
      const record = synthesizeRecord(plan.message, {
        // A new first message (a checkpoint replacing Claude Code's summary) goes under the compaction boundary
        // before it, as that summary did: the history before the boundary stays reachable through it.
        parent: tail ?? boundaryBefore(keptSide, plan.pos),
        neighbour: neighbourOf(plans, near, index),
        index,
        used: written,
        sessionId: options.sessionId,
      });
      addUuid(record, written, messageOf, index);
      plan.records = [{ pos: plan.pos, record, external: false }];
    } else {
      // The last uuid among the message's records before the current one.
      let before: string | undefined;
      plan.records.forEach((item, at) => {
        const parent = parentOf(item.record);
        const previous = at === 0 ? tail : (before ?? tail);
        before = uuidOf(item.record) ?? before;
        if (dangling(parent, item.external))
          item.record = withParent(item.record, ancestor(parent) ?? previous);
        if (at > 0 || options.unchanged) return;
        const reach = reaches(parentOf(item.record), item.external, index);
        if (reach === 'no') item.record = withParent(item.record, tail);
        else if (reach !== 'yes') linkBoundary(reach, index, tail, reaches);
      });
    }
    tail = lastUuid(plan.records) ?? tail;
  });
  return [...plans.flatMap((plan) => plan.records), ...sideRecords];
}

/** Whether a record leads back to the message before it: yes, no, or through this compaction boundary. */
type Reach = 'yes' | 'no' | PlannedRecord;

/** Makes a boundary on a message's way back lead to the message before it, through its logical parent. */
function linkBoundary(
  boundary: PlannedRecord,
  index: number,
  tail: string | null,
  reaches: (start: string | null | undefined, external: boolean, index: number) => Reach,
): void {
  const seen = new Set<PlannedRecord>();
  let current: Reach = boundary;
  while (current !== 'yes' && current !== 'no' && !seen.has(current)) {
    seen.add(current);
    const next = reaches(logicalParentOf(current.record), false, index);
    if (next === 'no' && tail !== null && isJsonObject(current.record))
      current.record = { ...current.record, logicalParentUuid: tail };
    current = next;
  }
}

/** The uuid of the last `compact_boundary` record written before file position `pos`, if any. */
function boundaryBefore(side: readonly SideEntry[], pos: number): string | null {
  let found: SideEntry | undefined;
  for (const entry of side) {
    const record = entry.record;
    if (entry.pos >= pos || (found !== undefined && entry.pos < found.pos)) continue;
    if (isJsonObject(record) && record['subtype'] === 'compact_boundary' && uuidOf(record) !== undefined)
      found = entry;
  }
  return found === undefined ? null : (uuidOf(found.record) ?? null);
}

function logicalParentOf(record: unknown): string | undefined {
  if (!isJsonObject(record)) return undefined;
  const logical = record['logicalParentUuid'];
  return typeof logical === 'string' ? logical : undefined;
}

function addUuid(
  record: unknown,
  written: Set<string>,
  messageOf?: Map<string, number>,
  index?: number,
): void {
  const uuid = uuidOf(record);
  if (uuid === undefined) return;
  written.add(uuid);
  if (messageOf !== undefined && index !== undefined && !messageOf.has(uuid)) messageOf.set(uuid, index);
}

/** True when every message strictly between `from` and `to` is a tool message. */
function onlyToolsBetween(toolRuns: readonly number[], from: number, to: number): boolean {
  return to <= from + 1 || (toolRuns[to - 1] as number) <= from + 1;
}

function isToolPlan(plan: Plan): boolean {
  if (plan.kind === 'new') return plan.message.role === 'tool';
  const first = plan.records[0]?.record;
  if (!isJsonObject(first) || first['type'] !== 'user') return false;
  const message = first['message'];
  const content = isJsonObject(message) ? message['content'] : undefined;
  return (
    Array.isArray(content) && content.some((block) => isJsonObject(block) && block['type'] === 'tool_result')
  );
}

/**
 * Side records kept. One whose parent is no longer written goes to the parent's nearest written ancestor, else to
 * the last record of its owner written before it in the file, else becomes a root: never to a record after it.
 */
function linkSide(
  entries: readonly SideEntry[],
  plans: readonly Plan[],
  written: ReadonlySet<string>,
  ancestor: (parent: string | null | undefined) => string | undefined,
): PlannedRecord[] {
  let keptBySeq: Map<number, Plan> | undefined;
  return entries.map((entry) => {
    const parent = parentOf(entry.record);
    if (typeof parent !== 'string' || entry.external || written.has(parent)) {
      return { pos: entry.pos, record: entry.record, external: entry.external };
    }
    if (keptBySeq === undefined) {
      keptBySeq = new Map();
      // The first kept plan of each sequence number, as a search from the start would find it.
      for (const plan of plans)
        if (plan.kind === 'kept' && !keptBySeq.has(plan.seq)) keptBySeq.set(plan.seq, plan);
    }
    const owner = entry.owner === undefined ? undefined : keptBySeq.get(entry.owner);
    const linked = ancestor(parent) ?? (owner === undefined ? undefined : lastUuid(owner.records, entry.pos));
    return { pos: entry.pos, record: withParent(entry.record, linked ?? null), external: false };
  });
}

/** The uuid of the last of `records` (placed before `pos`, when given) that has one. */
function lastUuid(records: readonly PlannedRecord[], pos = Number.POSITIVE_INFINITY): string | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const item = records[index] as PlannedRecord;
    if (item.pos >= pos) continue;
    const uuid = uuidOf(item.record);
    if (uuid !== undefined) return uuid;
  }
  return undefined;
}

function withParent(record: unknown, parent: string | null): unknown {
  if (!isJsonObject(record) || record['parentUuid'] === parent) return record;
  return { ...record, parentUuid: parent };
}

/** Per plan, the index of the nearest kept plan before it (-1: none) and after it (plans.length: none). */
interface KeptNeighbours {
  readonly before: Int32Array;
  readonly after: Int32Array;
}

function keptNeighbours(plans: readonly Plan[]): KeptNeighbours {
  const before = new Int32Array(plans.length);
  const after = new Int32Array(plans.length);
  let last = -1;
  for (let index = 0; index < plans.length; index++) {
    before[index] = last;
    if (plans[index]?.kind === 'kept') last = index;
  }
  last = plans.length;
  for (let index = plans.length - 1; index >= 0; index--) {
    after[index] = last;
    if (plans[index]?.kind === 'kept') last = index;
  }
  return { before, after };
}

/** The record of the nearest kept message (its last record before `index`, else its first after). */
function neighbourOf(plans: readonly Plan[], near: KeptNeighbours, index: number): JsonObject | undefined {
  const previous = plans[near.before[index] as number];
  if (previous !== undefined) return asObject(previous.records[previous.records.length - 1]?.record);
  const next = plans[near.after[index] as number];
  return next === undefined ? undefined : asObject(next.records[0]?.record);
}

function asObject(record: unknown): JsonObject | undefined {
  return isJsonObject(record) ? record : undefined;
}
