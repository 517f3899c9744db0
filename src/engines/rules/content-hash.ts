import type { Message } from '../../model/message.js';
import { valueHash } from '../../model/value-hash.js';

// Messages are immutable: each is hashed once, however many passes and stricter settings reference it.
const messageHashes = new WeakMap<Message, string>();

/**
 * The content hash of a message: its role and parts (what the model reads), not its id or codec data, so the
 * same message decoded again from the same file, or from a re-encoded copy, hashes the same.
 */
export function messageHash(message: Message): string {
  let hash = messageHashes.get(message);
  if (hash === undefined) {
    hash = valueHash({ role: message.role, parts: message.parts });
    messageHashes.set(message, hash);
  }
  return hash;
}

/**
 * A content hash that ignores tool-call ids (`id` of calls, `callId` of results): formats whose ids are derived
 * from positions (OpenHands events) renumber them when a shortened transcript is written and read back.
 */
export function looseMessageHash(message: Message): string {
  const parts = message.parts.map((part) => {
    if (part.type === 'tool-call') return { ...part, id: '' };
    if (part.type === 'tool-result') return { ...part, callId: '' };
    return part;
  });
  return valueHash({ role: message.role, parts });
}
