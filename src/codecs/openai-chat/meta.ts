import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import { codecMeta } from '../codec-meta.js';

export { definedFields, metaObject, metaString } from '../codec-meta.js';

/**
 * The openai codec keeps its own data under `meta.openai` of a part and `meta.codec.openai` of a message or
 * transcript, so other codecs never mistake it for theirs (an OpenAI part's unknown keys must not leak into an
 * Anthropic block).
 */
export const { partMeta, withPartMeta, decodedMessageMeta, decodedTranscript, hasIntactOrigin } =
  codecMeta('openai');

/** The openai codec data of a message. */
export function messageMeta(message: Message): JsonObject {
  return message.meta?.codec?.openai ?? {};
}

/** The openai codec data of a transcript. */
export function transcriptMeta(transcript: Transcript): JsonObject | undefined {
  return transcript.meta?.codec?.openai;
}

/** True when a boolean member of codec meta is set. */
export function metaFlag(meta: JsonObject | undefined, key: string): boolean {
  return meta?.[key] === true;
}
