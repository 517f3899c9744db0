import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Plan, PlannedRecord } from './plan-message.js';
import { parentOf, uuidOf } from './records.js';
import { synthesizeRecord } from './synthesize-record.js';

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
 * Side records whose owner message is gone are dropped. When the transcript is unchanged, only links to records
 * that are no longer written are repaired. Otherwise the first record of each message must hang off the message
 * before it (possibly through side records, or off an earlier message when only tool messages lie between —
 * parallel results hang off their call's record); if it does not, it is relinked to the last record of the
 * previous message, so the chain from the last message back to the root runs through every message in order.
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
  plans.forEach((plan, index) => {
    for (const item of plan.records) addUuid(item.record, written, messageOf, index);
  });
  for (const entry of keptSide) addUuid(entry.record, written);
  const sideRecords = linkSide(keptSide, plans, written);
  const sideParent = new Map<string, { parent: string | null | undefined; external: boolean }>();
  for (const item of sideRecords) {
    const uuid = uuidOf(item.record);
    if (uuid !== undefined) sideParent.set(uuid, { parent: parentOf(item.record), external: item.external });
  }
  const dangling = (parent: string | null | undefined, external: boolean): boolean =>
    typeof parent === 'string' && !external && !written.has(parent);
  const reaches = (start: string | null | undefined, startExternal: boolean, index: number): boolean => {
    let parent = start;
    let external = startExternal;
    for (let steps = 0; steps <= sideParent.size + 1; steps++) {
      if (typeof parent !== 'string' || external) return index === 0;
      const target = messageOf.get(parent);
      if (target !== undefined) return target < index && onlyToolsBetween(plans, target, index);
      const next = sideParent.get(parent);
      if (next === undefined) return false;
      parent = next.parent;
      external = next.external;
    }
    return false;
  };
  let tail: string | null = null;
  plans.forEach((plan, index) => {
    if (plan.kind === 'new') {
      const record = synthesizeRecord(plan.message, {
        parent: tail,
        neighbour: neighbourOf(plans, index),
        index,
        used: written,
        sessionId: options.sessionId,
      });
      addUuid(record, written, messageOf, index);
      plan.records = [{ pos: plan.pos, record, external: false }];
    } else {
      plan.records.forEach((item, at) => {
        const parent = parentOf(item.record);
        if (at === 0) {
          const relink = options.unchanged
            ? dangling(parent, item.external)
            : !reaches(parent, item.external, index);
          if (relink) item.record = withParent(item.record, tail);
        } else if (dangling(parent, item.external)) {
          item.record = withParent(item.record, lastUuid(plan.records.slice(0, at)) ?? tail);
        }
      });
    }
    tail = lastUuid(plan.records) ?? tail;
  });
  return [...plans.flatMap((plan) => plan.records), ...sideRecords];
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

function onlyToolsBetween(plans: readonly Plan[], from: number, to: number): boolean {
  for (let index = from + 1; index < to; index++) {
    const plan = plans[index];
    if (plan === undefined || !isToolPlan(plan)) return false;
  }
  return true;
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

/** Side records kept, with links into records that are no longer written moved to their owner's last record. */
function linkSide(
  entries: readonly SideEntry[],
  plans: readonly Plan[],
  written: ReadonlySet<string>,
): PlannedRecord[] {
  return entries.map((entry) => {
    const parent = parentOf(entry.record);
    if (typeof parent !== 'string' || entry.external || written.has(parent)) {
      return { pos: entry.pos, record: entry.record, external: entry.external };
    }
    const owner = plans.find((plan) => plan.kind === 'kept' && plan.seq === entry.owner);
    return {
      pos: entry.pos,
      record: withParent(entry.record, owner === undefined ? null : (lastUuid(owner.records) ?? null)),
      external: false,
    };
  });
}

function lastUuid(records: readonly PlannedRecord[]): string | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const uuid = uuidOf(records[index]?.record);
    if (uuid !== undefined) return uuid;
  }
  return undefined;
}

function withParent(record: unknown, parent: string | null): unknown {
  if (!isJsonObject(record) || record['parentUuid'] === parent) return record;
  return { ...record, parentUuid: parent };
}

function neighbourOf(plans: readonly Plan[], index: number): JsonObject | undefined {
  for (let at = index - 1; at >= 0; at--) {
    const plan = plans[at];
    if (plan?.kind === 'kept') return asObject(plan.records[plan.records.length - 1]?.record);
  }
  for (let at = index + 1; at < plans.length; at++) {
    const plan = plans[at];
    if (plan?.kind === 'kept') return asObject(plan.records[0]?.record);
  }
  return undefined;
}

function asObject(record: unknown): JsonObject | undefined {
  return isJsonObject(record) ? record : undefined;
}
