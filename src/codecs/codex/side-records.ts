import type { JsonObject, JsonValue } from '../../model/json.js';
import type { DecodedUnit } from '../openai-responses/decode-items.js';
import type { RolloutReading } from './read-rollout.js';
import { eventType, type RolloutRecord } from './records.js';

/**
 * What becomes of a line that holds no message when a changed transcript is written:
 * `keep` — session metadata, turn contexts, turn start/end events, early state lines and lines of unknown kinds;
 * `drop` — compactions, rollbacks and items left off the conversation (their effect is now in the messages);
 * `owned` — other events (token counts, command ends, the person's prompts as events…), kept while the message
 * they follow is kept.
 */
export type SideFate = 'keep' | 'drop' | 'owned';

const TURN_EVENTS: ReadonlySet<string> = new Set([
  'task_started',
  'turn_started',
  'task_complete',
  'turn_complete',
]);

function fateOf(record: RolloutRecord): SideFate {
  switch (record.kind) {
    case 'session-meta':
    case 'turn-context':
    case 'state':
    case 'unknown':
    case 'invalid':
      return 'keep';
    case 'compacted':
    case 'item':
      return 'drop';
    case 'event': {
      const type = eventType(record) ?? '';
      if (TURN_EVENTS.has(type)) return 'keep';
      return type === 'thread_rolled_back' ? 'drop' : 'owned';
    }
  }
}

/**
 * The lines of a rollout that no message holds, each with its position, its fate and (for `owned` lines) the
 * message it follows, for the transcript's codec meta. The lines are the very parsed values, not copies.
 */
export function sideEntries(
  reading: RolloutReading,
  units: readonly DecodedUnit[],
  values: readonly unknown[],
): JsonValue[] {
  const ownerOf = new Map<number, number>();
  units.forEach((unit, seq) => {
    for (const index of unit.items) {
      const entry = reading.entries[index];
      if (entry !== undefined && (entry.source === 'item' || entry.source === 'event'))
        ownerOf.set(entry.record, seq);
    }
  });
  const out: JsonValue[] = [];
  let owner: number | undefined;
  for (const record of reading.records) {
    const held = ownerOf.get(record.index);
    if (held !== undefined) {
      owner = held;
      continue;
    }
    const fate = fateOf(record);
    const entry: Record<string, JsonValue> = {
      pos: record.index,
      fate,
      record: (values[record.index] ?? null) as JsonValue,
    };
    if (fate === 'owned' && owner !== undefined) entry['owner'] = owner;
    out.push(entry as JsonObject);
  }
  return out;
}
