import { valueHash } from '../../model/value-hash.js';

interface RoleMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}

/**
 * The default identity of a conversation: its first system message and first user message. Both stay the same
 * while the history grows, and two conversations rarely share both.
 */
export function defaultConversationKey(messages: readonly unknown[]): string {
  const list = messages as readonly RoleMessage[];
  const system = list.find((message) => message?.role === 'system');
  const user = list.find((message) => message?.role === 'user');
  if (system === undefined && user === undefined) return 'conversation';
  return `conversation-${valueHash([system?.content ?? null, user?.content ?? null])}`;
}
