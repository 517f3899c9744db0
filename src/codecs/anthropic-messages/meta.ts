import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import { codecMeta } from '../codec-meta.js';

export { definedFields, metaObject, metaString } from '../codec-meta.js';

/**
 * The anthropic codec keeps its data under `meta.anthropic` of a part and `meta.codec.anthropic` of a message or
 * transcript; block keys it does not model (`cache_control`, `citations`…) live there and are written back only
 * by this codec.
 */
export const { partMeta, withPartMeta, decodedMessageMeta, decodedTranscript, hasIntactOrigin } =
  codecMeta('anthropic');

/** The anthropic codec data of a message, or `undefined` for a message this codec did not read. */
export function messageMeta(message: Message): JsonObject | undefined {
  return message.meta?.codec?.anthropic;
}
