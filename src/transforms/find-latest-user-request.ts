import type { Message } from '../model/message.js';
import { isPersonRequest } from './user-turns.js';

/**
 * Index of the last user message in which the person asked or said something (their words, a slash command,
 * an attached image), -1 when there is none. Harness text in user messages (Claude Code `isMeta` records,
 * `<system-reminder>`, `<task-notification>`, command output, skill bodies), interruption markers, framework
 * observations and checkpoint-only messages are skipped: see {@link isPersonRequest}.
 */
export function findLatestUserRequest(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (isPersonRequest(messages[index] as Message)) return index;
  }
  return -1;
}
