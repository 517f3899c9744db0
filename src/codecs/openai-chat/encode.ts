import type { Transcript } from '../../model/transcript.js';
import { encodeChatMessages } from './chat-messages.js';
import { encodeKeyed } from './envelopes/keyed.js';
import { encodeOpenHands } from './envelopes/openhands.js';
import { encodeToolbench } from './envelopes/toolbench.js';
import { transcriptMeta } from './meta.js';

/**
 * Encodes a transcript in the envelope it was read from; a transcript from elsewhere becomes
 * `{ "messages": [...] }` (the fine-tuning shape). An untouched transcript is its original wire value.
 */
export function encodeOpenai(transcript: Transcript): unknown {
  const origin = transcript.meta?.origin;
  if (origin?.format === 'openai' && origin.messages === transcript.messages) return origin.wire;
  const meta = transcriptMeta(transcript);
  const envelope = meta?.['envelope'];
  if (meta === undefined) return { messages: encodeChatMessages(transcript.messages, false) };
  switch (envelope) {
    case 'array':
      return encodeChatMessages(transcript.messages, meta['typed'] === true);
    case 'messages':
    case 'tau-bench':
    case 'swe-agent':
      return encodeKeyed(transcript, envelope, meta);
    case 'toolbench':
      return encodeToolbench(transcript, meta);
    case 'openhands-events':
    case 'openhands-output':
      return encodeOpenHands(transcript, meta);
    case 'verbatim':
      if (transcript.messages.length === 0) return meta['value'];
      return { messages: encodeChatMessages(transcript.messages, false) };
    default:
      return { messages: encodeChatMessages(transcript.messages, false) };
  }
}
