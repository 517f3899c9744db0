import type { Message } from '../model/message.js';

/**
 * The first index at or after `index` that is not a tool message: a head that ends after an assistant's tool
 * calls keeps their results with it.
 */
export function alignForward(messages: readonly Message[], index: number): number {
  let at = index;
  while (at < messages.length && messages[at]?.role === 'tool') at++;
  return at;
}

/**
 * The last index at or before `index` that is not a tool message: a tail that would start among tool results
 * starts at the assistant message that made the calls instead, so the group stays whole. Unlike Hermes, a cut
 * that already falls between groups is left where it is.
 */
export function alignBack(messages: readonly Message[], index: number): number {
  if (index <= 0 || index >= messages.length) return index;
  let at = index;
  while (at > 0 && messages[at]?.role === 'tool') at--;
  return at;
}

/**
 * The index just after a user message's immediate reply: the assistant message(s) right after it and their
 * tool results.
 */
export function turnEnd(messages: readonly Message[], userIndex: number): number {
  let at = userIndex + 1;
  while (at < messages.length && messages[at]?.role === 'assistant') at++;
  return alignForward(messages, at);
}
