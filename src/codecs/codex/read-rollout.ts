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

/**
 * Replays a rollout's records into the conversation of a view. Never throws. Linear in the records: the history
 * is changed in place, and what a compaction or a rollback reads is only what changed since the last one.
 */
export function readRollout(records: readonly RolloutRecord[], view: RolloutView): RolloutReading {
  const meta = records.find((record) => record.kind === 'session-meta');
  const covered = coveredEvents(records);
  const history: RolloutEntry[] = [];
  // history[0, prompts) are person prompts kept by an early compaction (context view): they need no new look.
  let prompts = 0;
  const boundaries: RolloutBoundary[] = [];
  const rollbacks: RolloutRollback[] = [];
  for (const record of records) {
    if (record.kind === 'item') {
      history.push({ item: record.payload, record: record.index, source: 'item' });
    } else if (record.kind === 'compacted') {
      if (view === 'full') {
        boundaries.push(appendCheckpoint(history, record));
        continue;
      }
      const replaced = replaceHistory(history, prompts, record);
      prompts = replaced.prompts;
      boundaries.length = 0;
      boundaries.push(replaced.boundary);
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
      history.length = cut;
      prompts = Math.min(prompts, cut);
      // Boundaries are in the order of their entries (each starts at the end of the history of its time).
      while ((boundaries.at(-1)?.entry ?? 0) > cut) boundaries.pop();
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

function replacementOf(record: RolloutRecord): readonly unknown[] | undefined {
  const replacement = record.payload['replacement_history'];
  return Array.isArray(replacement) ? replacement : undefined;
}

function summaryOf(record: RolloutRecord): string {
  return stringOf(record.payload['message']) ?? '';
}

/** Full view: the history stays; the checkpoint the compaction produced follows it (appended in place). */
function appendCheckpoint(history: RolloutEntry[], record: RolloutRecord): RolloutBoundary {
  const summary = summaryOf(record);
  const replacement = replacementOf(record);
  const entry = history.length;
  const items = checkpointItems(summary, replacement);
  for (const item of items) history.push({ item, record: record.index, source: 'checkpoint' });
  return boundaryOf(record, entry, summary, replacement, items);
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
 * person's prompts and adds the summary, as Codex rebuilds it on resume. Rewrites `history` in place, reading only
 * the entries after the first `prompts` (known prompts already); returns how many prompts it now starts with and
 * the compaction's boundary.
 */
function replaceHistory(
  history: RolloutEntry[],
  prompts: number,
  record: RolloutRecord,
): { prompts: number; boundary: RolloutBoundary } {
  const summary = summaryOf(record);
  const replacement = replacementOf(record);
  const items = checkpointItems(summary, replacement);
  if (replacement !== undefined) {
    history.length = 0;
    for (const item of replacement) history.push({ item, record: record.index, source: 'replacement' });
    const at = history.findIndex((entry) => items.includes(entry.item));
    return { prompts: 0, boundary: boundaryOf(record, at === -1 ? 0 : at, summary, replacement, items) };
  }
  let kept = prompts;
  for (let at = prompts; at < history.length; at++) {
    const entry = history[at] as RolloutEntry;
    if (isPromptItem(entry.item) || entry.source === 'event') history[kept++] = entry;
  }
  history.length = kept;
  for (const item of items) history.push({ item, record: record.index, source: 'checkpoint' });
  return { prompts: kept, boundary: boundaryOf(record, kept, summary, undefined, items) };
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

/**
 * Where dropping the newest `turns` user turns cuts the history (its length when there is nothing to drop). Reads
 * back from the end only as far as the cut: what it reads is what the rollback removes.
 */
function rollbackCut(history: readonly RolloutEntry[], turns: number): number {
  if (turns <= 0) return history.length;
  let cut = history.length;
  let found = 0;
  for (let at = history.length - 1; at >= 0 && found < turns; at--) {
    const entry = history[at] as RolloutEntry;
    if (entry.source === 'event' || isPromptItem(entry.item)) {
      cut = at;
      found++;
    }
  }
  return cut;
}
