import type { Message } from '../model/message.js';
import { hasUserContentBesidesCheckpoint } from './checkpoint-text.js';

/**
 * Index of the last user message with something the user actually wrote (text, image…), skipping user
 * messages that only carry a compaction checkpoint; -1 when there is none.
 */
export function findLatestUserRequest(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user' && hasUserContentBesidesCheckpoint(message)) return index;
  }
  return -1;
}
