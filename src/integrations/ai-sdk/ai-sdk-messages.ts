import { getCodec } from '../../codecs/registry.js';
import { isJsonObject } from '../../model/json.js';
import type { Transcript } from '../../model/transcript.js';

const aiSdk = getCodec('ai-sdk');

/** A list of AI SDK messages (`ModelMessage[]` or a provider prompt) as a transcript. */
export function decodeMessages(messages: readonly unknown[]): Transcript {
  return aiSdk.decode(messages).value;
}

/**
 * A transcript as a bare list of AI SDK messages. The codec writes back the envelope it read (a bare array
 * here), but a transcript built elsewhere comes out as `{ messages }`, so both shapes are unwrapped.
 */
export function encodeMessages(transcript: Transcript): unknown[] {
  const encoded = aiSdk.encode(transcript);
  if (Array.isArray(encoded)) return encoded;
  return isJsonObject(encoded) && Array.isArray(encoded['messages']) ? encoded['messages'] : [];
}
