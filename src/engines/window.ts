import type { Message } from '../model/message.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { findLatestUserRequest } from '../transforms/find-latest-user-request.js';

/**
 * The most tokens a prompt may take: the context window less the output reservation (when one is set and
 * smaller than the window). Compaction output must fit it; past it, no anti-thrash pause applies.
 */
export function windowLimit(contextLength: number, maxOutputTokens: number | undefined): number {
  const reserve = maxOutputTokens ?? 0;
  return reserve > 0 && reserve < contextLength ? contextLength - reserve : contextLength;
}

/** Tokens of what no engine removes: the system prompt(s) and the latest request, kept verbatim. */
export function irreducibleTokens(messages: readonly Message[], counter: TokenCounter): number {
  const latest = findLatestUserRequest(messages);
  let total = 0;
  messages.forEach((message, index) => {
    if (message.role === 'system' || index === latest) total += counter.countMessage(message);
  });
  return total;
}
