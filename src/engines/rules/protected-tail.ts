import type { Message } from '../../model/message.js';

/**
 * Where the protected tail starts: at the `turns`-th assistant message from the end. Each assistant step (an
 * assistant message with its tool results) counts as a turn, so one user request followed by dozens of agent
 * steps still leaves the older steps to compact. 0 when the transcript has fewer steps than that.
 */
export function protectedTailStart(messages: readonly Message[], turns: number): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'assistant' && ++seen === turns) return index;
  }
  return 0;
}
