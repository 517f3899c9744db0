import { getCodec } from '../codecs/registry.js';
import type { FormatName } from '../model/format.js';
import { isJsonObject, type JsonValue } from '../model/json.js';
import type { Transcript } from '../model/transcript.js';
import type { TurnAnnotation } from './trajectory-policy.js';

/** Key of the per-trajectory metrics in an output entry (Hermes' name). */
export const METRICS_KEY = 'compression_metrics';

/** Key of the policy's tool-turn labels in an output entry. */
export const ANNOTATIONS_KEY = 'turn_annotations';

/** What to add to an encoded entry besides its turns. */
export interface EntryExtras {
  /** Written under `compression_metrics`. */
  readonly metrics?: JsonValue;
  /** Written under `turn_annotations` as `{turn, tool, <field>: label}` objects. */
  readonly annotations?: readonly TurnAnnotation[];
}

/**
 * Encodes a trajectory in its format and, when the entry is a JSON object (a ShareGPT entry, an OpenAI
 * envelope…), adds the metrics and the turn labels as top-level keys, the way Hermes adds `compression_metrics`.
 * Entries that are bare arrays (a JSONL line holding a message array) have nowhere to put them: they come back as
 * encoded, and the figures live only in the aggregate metrics file.
 */
export function encodeTrajectoryEntry(
  transcript: Transcript,
  format: FormatName,
  extras: EntryExtras = {},
): unknown {
  const wire = getCodec(format).encode(transcript);
  const annotations = extras.annotations ?? [];
  if (!isJsonObject(wire) || (extras.metrics === undefined && annotations.length === 0)) return wire;
  const out: Record<string, unknown> = { ...wire };
  if (extras.metrics !== undefined) out[METRICS_KEY] = extras.metrics;
  if (annotations.length > 0) {
    out[ANNOTATIONS_KEY] = annotations.map((note) => ({
      turn: note.turn,
      tool: note.tool,
      [note.field]: note.label,
    }));
  }
  return out;
}
