import type { FormatName } from '../../model/format.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { PartMeta } from '../../model/part.js';

/**
 * Key of Responses item data in part meta (`meta['openai-responses']`) and in message and transcript codec meta.
 * Codex rollouts hold the same items, so the codex codec reads and writes part meta under this key too: a part
 * decoded from a rollout re-encodes as the very same item in either format.
 */
export const RESPONSES = 'openai-responses';

/** This codec's data of a part, when it has some. */
export function ownMeta(part: { readonly meta?: PartMeta }): JsonObject | undefined {
  const own = part.meta?.[RESPONSES];
  return isJsonObject(own) ? own : undefined;
}

/** Spreadable part meta holding `fields` under this codec's key (nothing when every field is undefined). */
export function withOwnMeta(fields: Record<string, JsonValue | undefined>): { meta?: PartMeta } {
  const kept = definedFields(fields);
  return kept === undefined ? {} : { meta: { [RESPONSES]: kept } };
}

/** The object without its `undefined` members, or `undefined` when nothing is left. */
export function definedFields(fields: Record<string, JsonValue | undefined>): JsonObject | undefined {
  let out: Record<string, JsonValue> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out ??= {};
    out[key] = value;
  }
  return out;
}

/** The codec fields of a message under `format` (empty when it has none). */
export function messageFields(message: Message, format: FormatName = RESPONSES): JsonObject {
  return message.meta?.codec?.[format] ?? {};
}

/** True when the message still holds the very parts decoded from its wire value in `format`. */
export function hasIntactOrigin(message: Message, format: FormatName): boolean {
  const origin = message.meta?.origin;
  return origin !== undefined && origin.format === format && origin.parts === message.parts;
}

/** A string member of a JSON object. */
export function stringOf(object: JsonObject | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** An object member of a JSON object. */
export function objectOf(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return isJsonObject(value) ? value : undefined;
}

/** The keys of `object` other than `consumed`, or `undefined` when there are none. */
export function extraKeys(object: JsonObject, consumed: readonly string[]): JsonObject | undefined {
  const entries = Object.entries(object).filter(([key]) => !consumed.includes(key));
  // fromEntries defines own properties, so a wire key named "__proto__" stays a plain key.
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as JsonObject);
}
