import type { JsonObject, JsonValue } from '../../model/json.js';
import { isJsonObject } from '../../model/json.js';
import type { Message, MessageMeta } from '../../model/message.js';
import type { Part, PartMeta } from '../../model/part.js';
import type { Transcript } from '../../model/transcript.js';

/**
 * The openai codec keeps its own data under `meta.openai` of a part and `meta.codec.openai` of a message or
 * transcript, so other codecs never mistake it for theirs (an OpenAI part's unknown keys must not leak into an
 * Anthropic block).
 */
export function partMeta(part: { readonly meta?: PartMeta }): JsonObject | undefined {
  const own = part.meta?.['openai'];
  return isJsonObject(own) ? own : undefined;
}

/** Spreadable part meta holding `fields` under the openai key (nothing when there are no fields). */
export function withPartMeta(fields: Record<string, JsonValue | undefined>): { meta?: PartMeta } {
  const kept = compact(fields);
  return kept === undefined ? {} : { meta: { openai: kept } };
}

/** The openai codec data of a message. */
export function messageMeta(message: Message): JsonObject {
  return message.meta?.codec?.openai ?? {};
}

/** The openai codec data of a transcript. */
export function transcriptMeta(transcript: Transcript): JsonObject | undefined {
  return transcript.meta?.codec?.openai;
}

/** Message meta with an origin and codec fields (undefined fields dropped). */
export function decodedMessageMeta(
  wire: unknown,
  parts: readonly Part[],
  fields: Record<string, JsonValue | undefined>,
): MessageMeta {
  const kept = compact(fields);
  return {
    origin: { format: 'openai', wire, parts },
    ...(kept === undefined ? {} : { codec: { openai: kept } }),
  };
}

/** The object without its `undefined` members, or `undefined` when nothing is left. */
export function compact(fields: Record<string, JsonValue | undefined>): JsonObject | undefined {
  let out: Record<string, JsonValue> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out ??= {};
    out[key] = value;
  }
  return out;
}

/** A string member of codec meta. */
export function metaString(meta: JsonObject | undefined, key: string): string | undefined {
  const value = meta?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** An object member of codec meta. */
export function metaObject(meta: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = meta?.[key];
  return isJsonObject(value) ? value : undefined;
}

/** True when a boolean member of codec meta is set. */
export function metaFlag(meta: JsonObject | undefined, key: string): boolean {
  return meta?.[key] === true;
}

/** True when the message still holds the very parts decoded from its openai wire value. */
export function hasIntactOrigin(message: Message): boolean {
  const origin = message.meta?.origin;
  return origin !== undefined && origin.format === 'openai' && origin.parts === message.parts;
}
