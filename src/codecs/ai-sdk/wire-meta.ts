import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { PartMeta } from '../../model/part.js';

/** Key of this codec's entries in part, message and transcript meta. */
export const AI = 'ai-sdk';

/** Splits a wire object into known keys and the rest (`extra`), which travels in meta and is written back. */
export function extraOf(object: JsonObject, known: readonly string[]): JsonObject | undefined {
  const extra: Record<string, JsonValue | undefined> = {};
  let any = false;
  for (const [key, value] of Object.entries(object)) {
    if (known.includes(key)) continue;
    extra[key] = value;
    any = true;
  }
  return any ? extra : undefined;
}

/** Part meta holding a wire part's `providerOptions` and unknown keys (plus any codec fields), or nothing. */
export function wireMeta(
  object: JsonObject,
  known: readonly string[],
  fields: JsonObject = {},
): { meta?: PartMeta } {
  const own: Record<string, JsonValue | undefined> = { ...fields };
  const options = object['providerOptions'];
  if (options !== undefined) own['providerOptions'] = options;
  const extra = extraOf(object, [...known, 'providerOptions']);
  if (extra !== undefined) own['extra'] = extra;
  return Object.keys(own).length === 0 ? {} : { meta: { [AI]: own } };
}

/** This codec's meta of a part or message, when it has some. */
export function ownMeta(meta: { readonly [key: string]: unknown } | undefined): JsonObject | undefined {
  const own = meta?.[AI];
  return isJsonObject(own) ? own : undefined;
}

/** Known fields, then `providerOptions`, then unknown keys, as kept in meta. */
export function withWireMeta(
  known: Record<string, JsonValue | undefined>,
  own: JsonObject | undefined,
): JsonObject {
  const out: Record<string, JsonValue | undefined> = { ...known };
  if (own?.['providerOptions'] !== undefined) out['providerOptions'] = own['providerOptions'];
  const extra = own?.['extra'];
  return isJsonObject(extra) ? { ...out, ...extra } : out;
}
