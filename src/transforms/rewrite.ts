import type { Message } from '../model/message.js';
import { withParts } from '../model/message-helpers.js';
import type { Part } from '../model/part.js';

/**
 * Applies `rewrite` to every message. The input array itself comes back when no message changed, and every
 * message `rewrite` returned as is stays the very same object, so codecs re-emit it byte for byte.
 */
export function mapMessages(
  messages: readonly Message[],
  rewrite: (message: Message, index: number) => Message,
): readonly Message[] {
  let out: Message[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    const next = rewrite(message, index);
    if (next !== message && out === undefined) out = messages.slice(0, index);
    out?.push(next);
  }
  return out ?? messages;
}

/**
 * Applies `rewrite` to every part of a message: the same message when no part changed, else a copy made with
 * `withParts` (which retires the wire origin) whose unchanged parts are the very same objects.
 */
export function mapParts(message: Message, rewrite: (part: Part, index: number) => Part): Message {
  let out: Part[] | undefined;
  for (let index = 0; index < message.parts.length; index++) {
    const part = message.parts[index] as Part;
    const next = rewrite(part, index);
    if (next !== part && out === undefined) out = message.parts.slice(0, index);
    out?.push(next);
  }
  return out === undefined ? message : withParts(message, out);
}
