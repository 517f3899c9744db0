import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import type { DecodeIssue, DecodeResult } from '../codec.js';
import { type DecodedUnit, decodeItems } from '../openai-responses/decode-items.js';
import { definedFields, RESPONSES } from '../openai-responses/meta.js';
import { type RolloutReading, type RolloutView, readRollout, rolloutRecords } from './read-rollout.js';
import { CODEX, isScriptRollout, type RolloutRecord } from './records.js';
import { sideEntries } from './side-records.js';

/** Options of {@link decodeRollout}. */
export interface RolloutDecodeOptions {
  /** @default 'full' */
  readonly view?: RolloutView;
}

/** A decoded rollout: the transcript, what decoding noticed, and the reading it was built from. */
export interface DecodedRollout extends DecodeResult<Transcript> {
  readonly reading: RolloutReading;
  /** For each entry of the reading, the index of the message holding it. */
  readonly messageOfEntry: readonly number[];
}

/**
 * Decodes the parsed lines of a Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`), in every
 * format Codex has written: typed lines (`session_meta`, `response_item`, `compacted`, `turn_context`,
 * `event_msg`), early rollouts (untyped metadata line, bare items, `record_type: state` lines) and the first
 * CLI's JSON document (`{session, items}`). The session's base instructions become the first, system message;
 * items become messages as in the Responses codec; `user_message` events no item mirrors become prompts;
 * Codex's compactions and rollbacks are applied as the view says (see {@link readRollout}). Every line is kept
 * (in message or transcript codec meta) so an untouched transcript encodes to the same file. Never throws.
 */
export function decodeRollout(wire: unknown, options: RolloutDecodeOptions = {}): DecodedRollout {
  const values: readonly unknown[] = Array.isArray(wire) ? wire : [wire];
  const issues: DecodeIssue[] = [];
  const records = rolloutRecords(values);
  const script = values.length === 1 && isScriptRollout(values[0]);
  reportRecords(records, issues);
  const reading = readRollout(records, options.view ?? 'full');
  const entries = reading.entries;
  const starts = new Set(reading.boundaries.map((boundary) => boundary.entry));
  const units = decodeItems(
    entries.map((entry) => entry.item),
    issues,
    {
      itemPath: (index) => [entries[index]?.record ?? 0],
      breakBefore: (index) => starts.has(index) || entries[index]?.source !== entries[index - 1]?.source,
    },
  );
  const messages: Message[] = [];
  const instructions = instructionsMessage(reading, values, script);
  if (instructions !== undefined) messages.push(instructions);
  const messageOfEntry: number[] = new Array(entries.length).fill(0);
  units.forEach((unit, seq) => {
    for (const index of unit.items) messageOfEntry[index] = messages.length;
    messages.push(unitMessage(unit, seq, reading, values, script));
  });
  const fields = definedFields({
    side: script ? undefined : sideEntries(reading, units, values),
    messageCount: units.length,
    script: script ? scriptEnvelope(values[0] as JsonObject) : undefined,
  });
  const transcript: Transcript = {
    messages,
    meta: {
      format: CODEX,
      origin: { format: CODEX, wire: values, messages },
      ...(fields === undefined ? {} : { codec: { [CODEX]: fields } }),
    },
  };
  return { value: transcript, issues, reading, messageOfEntry };
}

function reportRecords(records: readonly RolloutRecord[], issues: DecodeIssue[]): void {
  for (const record of records) {
    if (record.kind === 'invalid') {
      issues.push({
        code: 'invalid-shape',
        severity: 'error',
        message: `record ${record.index} is not a JSON object; it is kept as is`,
        path: [record.index],
      });
    } else if (record.kind === 'unknown') {
      issues.push({
        code: 'unknown-record',
        severity: 'warning',
        message: `record ${record.index} is of a kind condense does not read; it is kept as is`,
        path: [record.index],
      });
    }
  }
}

/** The session's base instructions as a system message (its record is the `session_meta` line). */
function instructionsMessage(
  reading: RolloutReading,
  values: readonly unknown[],
  script: boolean,
): Message | undefined {
  const text = reading.instructions;
  const meta = reading.meta;
  if (text === undefined || meta === undefined) return undefined;
  const parts = [{ type: 'text' as const, text }];
  const codex: JsonObject = script
    ? { instructions: true }
    : { instructions: true, records: [recordRef(meta.index, values)] };
  return {
    role: 'system',
    parts,
    meta: {
      origin: { format: CODEX, wire: script ? [] : [values[meta.index] as JsonValue], parts },
      codec: { [RESPONSES]: { instructions: true }, [CODEX]: codex },
    },
  };
}

function recordRef(pos: number, values: readonly unknown[]): JsonObject {
  return { pos, record: values[pos] as JsonValue };
}

function unitMessage(
  unit: DecodedUnit,
  seq: number,
  reading: RolloutReading,
  values: readonly unknown[],
  script: boolean,
): Message {
  const refs: JsonObject[] = [];
  const seen = new Set<number>();
  let source: string | undefined;
  for (const index of unit.items) {
    const entry = reading.entries[index];
    if (entry === undefined) continue;
    if (entry.source !== 'item') source = entry.source;
    const pos = entry.record;
    // A script rollout's items sit inside its one document: positions are item numbers, written back by the envelope.
    if (script) {
      refs.push({ pos, item: entry.item as JsonValue });
      continue;
    }
    if (entry.source === 'item') {
      if (!seen.has(pos)) refs.push(recordRef(pos, values));
    } else refs.push({ pos, item: entry.item as JsonValue, record: values[pos] as JsonValue });
    seen.add(pos);
  }
  const fields = definedFields(unit.fields);
  return {
    role: unit.role,
    parts: unit.parts,
    meta: {
      origin: {
        format: CODEX,
        wire: refs.map((ref) => ref['record'] ?? ref['item'] ?? null),
        parts: unit.parts,
      },
      codec: {
        ...(fields === undefined ? {} : { [RESPONSES]: fields }),
        [CODEX]: definedFields({ seq, records: refs, source }) ?? { seq },
      },
    },
  };
}

function scriptEnvelope(value: JsonObject): JsonObject {
  const { items: _items, ...rest } = value;
  return { keys: Object.keys(value), rest };
}
