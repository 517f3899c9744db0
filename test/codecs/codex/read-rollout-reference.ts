/*
 * readRollout as it was before it changed the history in place (2026-11-26): it copied the history at every
 * compaction and rollback, which was quadratic in their number. Kept as the reference the property test holds the
 * linear version to. Not part of condense.
 */

import {
  promptFromEvent,
  type RolloutBoundary,
  type RolloutEntry,
  type RolloutReading,
  type RolloutRollback,
  type RolloutView,
} from '../../../src/codecs/codex/read-rollout.js';
import {
  eventType,
  isModelItem,
  isPromptItem,
  itemText,
  type RolloutRecord,
} from '../../../src/codecs/codex/records.js';
import { isJsonObject, stringOf } from '../../../src/model/json.js';

/** Replays a rollout's records into the conversation of a view. Never throws. */
export function referenceReadRollout(records: readonly RolloutRecord[], view: RolloutView): RolloutReading {
  const meta = records.find((record) => record.kind === 'session-meta');
  const covered = coveredEvents(records);
  let history: RolloutEntry[] = [];
  let boundaries: RolloutBoundary[] = [];
  const rollbacks: RolloutRollback[] = [];
  for (const record of records) {
    if (record.kind === 'item') {
      history.push({ item: record.payload, record: record.index, source: 'item' });
    } else if (record.kind === 'compacted') {
      const result = view === 'full' ? appendCheckpoint(history, record) : replaceHistory(history, record);
      history = result.history;
      boundaries =
        view === 'full' || result.replaced === false ? [...boundaries, result.boundary] : [result.boundary];
    } else if (eventType(record) === 'user_message' && !covered.has(record.index)) {
      history.push({ item: promptFromEvent(record.payload), record: record.index, source: 'event' });
    } else if (eventType(record) === 'thread_rolled_back') {
      const turns = Number(record.payload['num_turns'] ?? 0);
      const cut = rollbackCut(history, Number.isFinite(turns) ? turns : 0);
      rollbacks.push({
        record: record.index,
        turns,
        removed: history.slice(cut).map((entry) => entry.record),
      });
      history = history.slice(0, cut);
      boundaries = boundaries.filter((boundary) => boundary.entry <= cut);
    }
  }
  return {
    records,
    meta,
    instructions: instructionsOf(meta),
    entries: history,
    boundaries,
    rollbacks,
    covered,
  };
}

function instructionsOf(meta: RolloutRecord | undefined): string | undefined {
  if (meta === undefined) return undefined;
  const base = meta.payload['base_instructions'];
  const text = isJsonObject(base) ? stringOf(base['text']) : stringOf(meta.payload['instructions']);
  return text === '' ? undefined : text;
}

/**
 * `user_message` events mirrored by a prompt item of the same input (the lines between two model items): those
 * are the same words twice. An event no item mirrors is the only record of a prompt and becomes one.
 */
function coveredEvents(records: readonly RolloutRecord[]): Set<number> {
  const runOf = new Map<number, number>();
  const prompted = new Set<number>();
  let run = 0;
  for (const record of records) {
    if (record.kind === 'item' && isModelItem(record.payload)) run++;
    if (record.kind === 'compacted') run++;
    runOf.set(record.index, run);
    if (record.kind === 'item' && isPromptItem(record.payload)) prompted.add(run);
  }
  const out = new Set<number>();
  for (const record of records) {
    if (eventType(record) === 'user_message' && prompted.has(runOf.get(record.index) ?? -1))
      out.add(record.index);
  }
  return out;
}

interface Compaction {
  readonly history: RolloutEntry[];
  readonly boundary: RolloutBoundary;
  readonly replaced: boolean;
}

function replacementOf(record: RolloutRecord): readonly unknown[] | undefined {
  const replacement = record.payload['replacement_history'];
  return Array.isArray(replacement) ? replacement : undefined;
}

function summaryOf(record: RolloutRecord): string {
  return stringOf(record.payload['message']) ?? '';
}

/** Full view: the history stays; the checkpoint the compaction produced follows it. */
function appendCheckpoint(history: RolloutEntry[], record: RolloutRecord): Compaction {
  const summary = summaryOf(record);
  const replacement = replacementOf(record);
  const entry = history.length;
  const items = checkpointItems(summary, replacement);
  const out = [
    ...history,
    ...items.map((item) => ({ item, record: record.index, source: 'checkpoint' as const })),
  ];
  return { history: out, boundary: boundaryOf(record, entry, summary, replacement, items), replaced: false };
}

/**
 * The items standing for a compaction's summary: the API's encrypted `compaction` items when the history was
 * compacted remotely, else the replacement history's user message holding the summary, else a user message
 * with the summary text.
 */
function checkpointItems(summary: string, replacement: readonly unknown[] | undefined): unknown[] {
  const encrypted = (replacement ?? []).filter(
    (item) => isJsonObject(item) && (item['type'] === 'compaction' || item['type'] === 'compaction_summary'),
  );
  if (encrypted.length > 0) return encrypted;
  if (summary.trim() === '') return [];
  const holding = (replacement ?? []).find(
    (item) => isJsonObject(item) && item['role'] === 'user' && itemText(item).includes(summary.trim()),
  );
  return [holding ?? { type: 'message', role: 'user', content: [{ type: 'input_text', text: summary }] }];
}

/**
 * Context view: a replacement history replaces everything before it; an early compaction without one keeps the
 * person's prompts and adds the summary, as Codex rebuilds it on resume.
 */
function replaceHistory(history: RolloutEntry[], record: RolloutRecord): Compaction {
  const summary = summaryOf(record);
  const replacement = replacementOf(record);
  if (replacement !== undefined) {
    const out = replacement.map((item) => ({ item, record: record.index, source: 'replacement' as const }));
    const items = checkpointItems(summary, replacement);
    const at = out.findIndex((entry) => items.includes(entry.item));
    return {
      history: out,
      boundary: boundaryOf(record, at === -1 ? 0 : at, summary, replacement, items),
      replaced: true,
    };
  }
  const prompts = history.filter((entry) => isPromptItem(entry.item) || entry.source === 'event');
  const items = checkpointItems(summary, undefined);
  const out = [
    ...prompts,
    ...items.map((item) => ({ item, record: record.index, source: 'checkpoint' as const })),
  ];
  return {
    history: out,
    boundary: boundaryOf(record, prompts.length, summary, undefined, items),
    replaced: true,
  };
}

function boundaryOf(
  record: RolloutRecord,
  entry: number,
  summary: string,
  replacement: readonly unknown[] | undefined,
  items: readonly unknown[],
): RolloutBoundary {
  return {
    record: record.index,
    entry,
    summary,
    replacementItems: replacement?.length,
    encrypted: items.some((item) => isJsonObject(item) && item['type'] !== 'message'),
  };
}

/** Where dropping the newest `turns` user turns cuts the history (its length when there is nothing to drop). */
function rollbackCut(history: readonly RolloutEntry[], turns: number): number {
  if (turns <= 0) return history.length;
  const starts: number[] = [];
  history.forEach((entry, at) => {
    if (entry.source === 'event' || isPromptItem(entry.item)) starts.push(at);
  });
  if (starts.length === 0) return history.length;
  return starts[Math.max(0, starts.length - turns)] as number;
}
