import type { FormatName } from '../../model/format.js';
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import { codecMeta } from '../codec-meta.js';

export { definedFields, hasIntactOrigin, metaObject, metaString } from '../codec-meta.js';

/**
 * Key of Responses item data in part meta (`meta['openai-responses']`) and in message and transcript codec meta.
 * Codex rollouts hold the same items, so the codex codec reads and writes part meta under this key too: a part
 * decoded from a rollout re-encodes as the very same item in either format.
 */
export const RESPONSES = 'openai-responses';

/** This codec's data of a part (`ownMeta`), and spreadable part meta holding fields under its key (`withOwnMeta`). */
export const { partMeta: ownMeta, withPartMeta: withOwnMeta } = codecMeta(RESPONSES);

/** The codec fields of a message under `format` (empty when it has none). */
export function messageFields(message: Message, format: FormatName = RESPONSES): JsonObject {
  return message.meta?.codec?.[format] ?? {};
}

/** The keys of `object` other than `consumed`, or `undefined` when there are none. */
export function extraKeys(object: JsonObject, consumed: readonly string[]): JsonObject | undefined {
  const entries = Object.entries(object).filter(([key]) => !consumed.includes(key));
  // fromEntries defines own properties, so a wire key named "__proto__" stays a plain key.
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as JsonObject);
}
