import { isJsonObject, type JsonObject, stringOf } from '../../model/json.js';
import {
  classifyRecord,
  eventType,
  isModelItem,
  isPromptItem,
  isScriptRollout,
  itemText,
  type RolloutRecord,
} from './records.js';

/**
 * Which conversation to read. `full`: everything the session said, in file order, across Codex's compactions
 * (each compaction's summary in place, marked as a boundary). `context`: what the model sees now — the newest
 * compaction's replacement history (or, for early compactions, the person's prompts and the summary) and what
 * came after it.
 */
export type RolloutView = 'full' | 'context';

/** Where an item of the conversation came from. */
export type EntrySource =
  /** A `response_item` line. */
  | 'item'
  /** A `user_message` event no item mirrors (rollouts that logged the prompt only as an event). */
  | 'event'
  /** The summary of a `compacted` line (its replacement item, or a user message holding the summary). */
  | 'checkpoint'
  /** An item of a `compacted` line's replacement history (context view). */
  | 'replacement';

/** One item of the conversation and the line it came from. */
export interface RolloutEntry {
  readonly item: unknown;
  readonly record: number;
  readonly source: EntrySource;
}

/** A `compacted` line on the conversation. */
export interface RolloutBoundary {
  readonly record: number;
  /** Index in `entries` where its checkpoint starts. */
  readonly entry: number;
  readonly summary: string;
  /** Items of its replacement history (`undefined` for early compactions without one). */
  readonly replacementItems: number | undefined;
  /** True when the summary is the API's encrypted `compaction` item. */
  readonly encrypted: boolean;
}

/** A `thread_rolled_back` event and the lines it took off the conversation. */
export interface RolloutRollback {
  readonly record: number;
  readonly turns: number;
  readonly removed: readonly number[];
}

/** A rollout read in one view. */
export interface RolloutReading {
  readonly records: readonly RolloutRecord[];
  /** The `session_meta` line, when there is one. */
  readonly meta: RolloutRecord | undefined;
  /** Base instructions the session ran with (`session_meta.base_instructions`, early `instructions`). */
  readonly instructions: string | undefined;
  readonly entries: readonly RolloutEntry[];
  readonly boundaries: readonly RolloutBoundary[];
  readonly rollbacks: readonly RolloutRollback[];
  /** `user_message` event lines an item of the same input mirrors. */
  readonly covered: ReadonlySet<number>;
}

/** The records of a rollout's parsed lines (or of the first CLI's one JSON document). */
export function rolloutRecords(values: readonly unknown[]): RolloutRecord[] {
  const only = values[0];
  if (values.length === 1 && isScriptRollout(only)) {
    const session = only['session'] as JsonObject;
    return [
      { index: 0, kind: 'session-meta', payload: session, timestamp: stringOf(session['timestamp']) },
      ...only.items.map((item, at) =>
        isJsonObject(item)
          ? { index: at + 1, kind: 'item' as const, payload: item, timestamp: undefined }
          : { index: at + 1, kind: 'invalid' as const, payload: {}, timestamp: undefined },
      ),
    ];
  }
  return values.map((value, index) => classifyRecord(value, index, index === 0));
}

/** Replays a rollout's records into the conversation of a view. Never throws. */
export function readRollout(records: readonly RolloutRecord[], view: RolloutView): RolloutReading {
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

/** The user message item a `user_message` event stands for: its text and the images it carried. */
export function promptFromEvent(payload: JsonObject): JsonObject {
  const content: JsonObject[] = [{ type: 'input_text', text: stringOf(payload['message']) ?? '' }];
  const images = payload['images'];
  if (Array.isArray(images)) {
    for (const image of images)
      if (typeof image === 'string') content.push({ type: 'input_image', image_url: image });
  }
  return { type: 'message', role: 'user', content };
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
