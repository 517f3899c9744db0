import type { JsonObject, JsonValue } from '../../model/json.js';
import { isJsonObject } from '../../model/json.js';
import type { Message, MessageMeta } from '../../model/message.js';
import type { Part, PartMeta } from '../../model/part.js';

/**
 * The anthropic codec keeps its data under `meta.anthropic` of a part and `meta.codec.anthropic` of a message or
 * transcript; block keys it does not model (`cache_control`, `citations`…) live there and are written back only
 * by this codec.
 */
export function partMeta(part: { readonly meta?: PartMeta }): JsonObject | undefined {
  const own = part.meta?.['anthropic'];
  return isJsonObject(own) ? own : undefined;
}

/** Spreadable part meta holding `fields` under the anthropic key (nothing when every field is undefined). */
export function withPartMeta(fields: Record<string, JsonValue | undefined>): { meta?: PartMeta } {
  const kept = compact(fields);
  return kept === undefined ? {} : { meta: { anthropic: kept } };
}

/** The anthropic codec data of a message, or `undefined` for a message this codec did not read. */
export function messageMeta(message: Message): JsonObject | undefined {
  return message.meta?.codec?.anthropic;
}

/** Message meta with an origin and codec fields. */
export function decodedMessageMeta(
  wire: unknown,
  parts: readonly Part[],
  fields: Record<string, JsonValue | undefined>,
): MessageMeta {
  const kept = compact(fields);
  return {
    origin: { format: 'anthropic', wire, parts },
    ...(kept === undefined ? {} : { codec: { anthropic: kept } }),
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

/** An object member of codec meta. */
export function metaObject(meta: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = meta?.[key];
  return isJsonObject(value) ? value : undefined;
}

/** A string member of codec meta. */
export function metaString(meta: JsonObject | undefined, key: string): string | undefined {
  const value = meta?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** True when the message still holds the very parts decoded from its anthropic wire value. */
export function hasIntactOrigin(message: Message): boolean {
  const origin = message.meta?.origin;
  return origin !== undefined && origin.format === 'anthropic' && origin.parts === message.parts;
}
