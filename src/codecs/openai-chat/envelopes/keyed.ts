import type { JsonObject } from '../../../model/json.js';
import type { Transcript } from '../../../model/transcript.js';
import type { DecodeResult } from '../../codec.js';
import { asJson, type WireObject } from '../../wire-object.js';
import { decodeChatMessages, encodeChatMessages } from '../chat-messages.js';
import { decodedTranscript, metaObject } from '../meta.js';
import { MESSAGES_KEY } from './envelope-kind.js';

/** Envelopes whose messages sit under one top-level key, every other key kept as it was. */
export type KeyedEnvelope = keyof typeof MESSAGES_KEY;

/**
 * Decodes `{messages}`, tau-bench `{traj}` or SWE-agent `{history}`. The rest of the object (tools, model,
 * reward, info, trajectory…) is kept with the message key in its place, so the encoder rebuilds it in order.
 */
export function decodeKeyed(wire: WireObject, envelope: KeyedEnvelope): DecodeResult<Transcript> {
  const key = MESSAGES_KEY[envelope];
  const chat = decodeChatMessages(wire[key] as unknown[], [key]);
  const rest = asJson({ ...wire, [key]: [] });
  return {
    value: decodedTranscript(wire, chat.messages, { envelope, rest, typed: chat.typed ? true : undefined }),
    issues: chat.issues,
  };
}

/** The inverse of {@link decodeKeyed}. */
export function encodeKeyed(transcript: Transcript, envelope: KeyedEnvelope, meta: JsonObject): unknown {
  const key = MESSAGES_KEY[envelope];
  const messages = encodeChatMessages(transcript.messages, meta['typed'] === true);
  return { ...metaObject(meta, 'rest'), [key]: messages };
}

/** Decodes a bare array of chat messages. */
export function decodeBareArray(wire: readonly unknown[]): DecodeResult<Transcript> {
  const chat = decodeChatMessages(wire, []);
  return {
    value: decodedTranscript(wire, chat.messages, {
      envelope: 'array',
      typed: chat.typed ? true : undefined,
    }),
    issues: chat.issues,
  };
}
