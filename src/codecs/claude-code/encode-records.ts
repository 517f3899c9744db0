import { maxOf, minOf } from '../../model/arrays.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Transcript } from '../../model/transcript.js';
import { applyToolIds, planToolIds } from '../portable/tool-ids.js';
import { ANTHROPIC_TOOL_ID } from '../provider-rules/anthropic-rules.js';
import { type Plan, planMessage } from './plan-message.js';
import { CC } from './records.js';
import { linkRecords, type SideEntry } from './relink.js';
import { hashUuid } from './uuid.js';

/**
 * Encodes a transcript as the records of a Claude Code session file, in file order.
 *
 * - Untouched transcript: the very records that were decoded (the document layer writes their original bytes).
 * - Messages decoded from Claude Code keep their records (original objects while untouched, else rebuilt from
 *   the kept envelope and the current parts), at their original positions; non-message records come back at
 *   theirs, except those that belonged only to removed messages (progress under a removed tool call, a
 *   snapshot of a removed prompt…), which are dropped.
 * - New messages (a compaction summary, messages from other formats) get one synthesized record each, placed
 *   right after the previous message, with envelope fields and timestamp copied from the nearest kept record and
 *   a uuid derived from content and position (no randomness, no clock; see `synthesizeRecord`).
 * - When messages were removed, inserted or reordered, `parentUuid`s are relinked so the chain from the last
 *   message back to the root passes through every message in transcript order (see `linkRecords`); with the
 *   decoded message sequence intact, links are kept as read (dead branches and side branches included).
 * - A transcript from another format becomes a minimal session: user/assistant records, tool results as
 *   `tool_result` blocks in user records, one `parentUuid` chain, a session id derived from the content, tool ids
 *   Anthropic accepts, and no timestamps (the real times are unknown).
 *
 * Lossy: a system message becomes a `system` record, which Claude Code does not send to the model; `toolUseResult`
 * is only ever copied from a kept record.
 */
export function encodeClaudeCodeRecords(transcript: Transcript): unknown[] {
  const origin = transcript.meta?.origin;
  if (
    origin?.format === 'claude-code' &&
    origin.messages === transcript.messages &&
    Array.isArray(origin.wire)
  ) {
    return origin.wire as unknown[];
  }
  const codec = transcript.meta?.codec?.[CC];
  const side = sideEntriesOf(codec);
  // Claude Code sends the session to Anthropic on resume: tool ids must be valid and unique there.
  const plan = planToolIds(
    transcript.messages,
    ANTHROPIC_TOOL_ID,
    (message) => message.meta?.codec?.[CC] !== undefined,
  );
  const messages = applyToolIds(transcript.messages, plan);
  const plans = messages.map(planMessage);
  placeNewPlans(plans, side);
  const unchanged =
    codec?.['messageCount'] === plans.length &&
    plans.every((plan, index) => plan.kind === 'kept' && plan.seq === index);
  let sessionId: string | undefined;
  const records = linkRecords(plans, side, {
    unchanged,
    sessionId: () => {
      sessionId ??= hashUuid(
        `session|${JSON.stringify(transcript.messages.map((message) => [message.role, message.parts]))}`,
      );
      return sessionId;
    },
  });
  return records.sort((left, right) => left.pos - right.pos).map((item) => item.record);
}

function sideEntriesOf(codec: JsonObject | undefined): SideEntry[] {
  const side = codec?.['side'];
  if (!Array.isArray(side)) return [];
  return (side as readonly JsonValue[]).flatMap((item): SideEntry[] => {
    if (!isJsonObject(item) || typeof item['pos'] !== 'number' || !('record' in item)) return [];
    const owner = item['owner'];
    return [
      {
        pos: item['pos'],
        record: item['record'],
        ...(typeof owner === 'number' ? { owner } : {}),
        external: item['external'] === true,
      },
    ];
  });
}

/**
 * Gives new messages file positions right after the previous message's last record (before the next kept
 * message when they open the transcript; after every side record when nothing is kept).
 */
function placeNewPlans(plans: readonly Plan[], side: readonly SideEntry[]): void {
  let index = 0;
  while (index < plans.length) {
    if (plans[index]?.kind !== 'new') {
      index++;
      continue;
    }
    let end = index;
    while (plans[end]?.kind === 'new') end++;
    const low = lowBound(plans, index, end, side);
    const count = end - index;
    for (let at = index; at < end; at++) {
      const plan = plans[at];
      if (plan?.kind === 'new') plan.pos = low + (at - index + 1) / (count + 1);
    }
    index = end;
  }
}

function lowBound(plans: readonly Plan[], start: number, end: number, side: readonly SideEntry[]): number {
  const previous = plans[start - 1];
  if (previous?.kind === 'kept') return maxOf(previous.records.map((item) => item.pos));
  for (let at = end; at < plans.length; at++) {
    const plan = plans[at];
    if (plan?.kind === 'kept') return minOf(plan.records.map((item) => item.pos)) - 1;
  }
  return side.reduce((max, entry) => Math.max(max, entry.pos), -1);
}
