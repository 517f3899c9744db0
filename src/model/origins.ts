import type { Message } from './message.js';
import type { Transcript } from './transcript.js';

/**
 * A copy of the transcript without any origin (wire values kept for byte-identical re-encoding): what to
 * serialise when showing a transcript, and what forces a codec to re-encode every message from its parts.
 */
export function stripOrigins(transcript: Transcript): Transcript {
  const messages = transcript.messages.map(stripMessageOrigin);
  if (transcript.meta === undefined) return { messages };
  const { origin: _origin, ...meta } = transcript.meta;
  return Object.keys(meta).length === 0 ? { messages } : { messages, meta };
}

function stripMessageOrigin(message: Message): Message {
  if (message.meta?.origin === undefined) return message;
  const { origin: _origin, ...meta } = message.meta;
  const { meta: _old, ...rest } = message;
  return Object.keys(meta).length === 0 ? rest : { ...rest, meta };
}
