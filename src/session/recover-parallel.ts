import { appendAll } from '../model/arrays.js';
import { isJsonObject } from '../model/json.js';
import { lookup, type SessionIndex } from './session-index.js';
import type { LineSkeleton } from './skeleton.js';

/**
 * Splices the off-chain members of the chain's responses back into the chain. For every API response on the
 * chain (assistant records sharing `message.id`), its off-chain sibling records and the tool-result records
 * parented to any of its records are inserted right after its last on-chain record, siblings first, each in
 * file order: the response stays contiguous and every result lands after its call. This is the repair Claude
 * Code applies on resume (a single-parent walk drops all but one branch of parallel calls).
 */
export function recoverParallel(
  index: SessionIndex,
  path: readonly number[],
  candidates: readonly number[],
): number[] {
  const anchorOf = new Map<string, number>();
  const members = new Map<string, Set<string>>();
  for (const at of path) {
    const id = responseId(skeletonAt(index, at));
    if (id === undefined) continue;
    anchorOf.set(id, at);
    addMember(members, id, skeletonAt(index, at).uuid);
  }
  if (anchorOf.size === 0) return [...path];
  const inserts = new Map<number, number[]>();
  const taken = new Set<number>();
  for (const at of candidates) {
    const id = responseId(skeletonAt(index, at));
    const anchor = id === undefined ? undefined : anchorOf.get(id);
    if (id === undefined || anchor === undefined) continue;
    addMember(members, id, skeletonAt(index, at).uuid);
    push(inserts, anchor, at);
    taken.add(at);
  }
  const groupOf = new Map<string, string>();
  for (const [id, uuids] of members) for (const uuid of uuids) groupOf.set(uuid, id);
  for (const at of candidates) {
    const skeleton = skeletonAt(index, at);
    if (taken.has(at) || !holdsToolResult(skeleton.value)) continue;
    const parent = lookup(index, skeleton.parent);
    const id = parent?.uuid === undefined ? undefined : groupOf.get(parent.uuid);
    const anchor = id === undefined ? undefined : anchorOf.get(id);
    if (anchor !== undefined) push(inserts, anchor, at);
  }
  const out: number[] = [];
  for (const at of path) {
    out.push(at);
    const extra = inserts.get(at);
    if (extra === undefined) continue;
    // Siblings were queued before results; each kind is already in file order.
    appendAll(out, extra);
  }
  return out;
}

function responseId(skeleton: LineSkeleton): string | undefined {
  const value = skeleton.value;
  if (skeleton.type !== 'assistant' || !isJsonObject(value)) return undefined;
  const message = value['message'];
  const id = isJsonObject(message) ? message['id'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

function addMember(members: Map<string, Set<string>>, id: string, uuid: string | undefined): void {
  if (uuid === undefined) return;
  const set = members.get(id);
  if (set === undefined) members.set(id, new Set([uuid]));
  else set.add(uuid);
}

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function skeletonAt(index: SessionIndex, at: number): LineSkeleton {
  return index.skeletons[at] as LineSkeleton;
}

/** True when a parsed record is a user record holding at least one `tool_result` block. */
export function holdsToolResult(value: unknown): boolean {
  if (!isJsonObject(value) || value['type'] !== 'user') return false;
  const message = value['message'];
  const content = isJsonObject(message) ? message['content'] : undefined;
  return (
    Array.isArray(content) && content.some((block) => isJsonObject(block) && block['type'] === 'tool_result')
  );
}
