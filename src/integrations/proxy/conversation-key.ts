import { createHash } from 'node:crypto';
import { stableJson } from './prefix-splice.js';
import type { ProtocolAdapter, RequestBody } from './protocol-adapter.js';

/** A conversation's key in the store and its short public id. */
export interface ConversationIdentity {
  readonly key: string;
  readonly id: string;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Who a request belongs to: the `x-condense-conversation` header when the client sends one, else a hash of the
 * protocol, model, system prompt and first user message, which stay the same while the history grows.
 */
export function conversationIdentity(
  adapter: ProtocolAdapter,
  body: RequestBody,
  header: string | undefined,
): ConversationIdentity {
  const key =
    header !== undefined && header !== ''
      ? `header:${header}`
      : `hash:${sha256(
          stableJson([
            adapter.protocol,
            body['model'] ?? null,
            adapter.systemPrompt(body),
            firstUser(body[adapter.promptKey]),
          ]),
        )}`;
  return { key, id: sha256(key).slice(0, 12) };
}

function firstUser(prompt: unknown): unknown {
  const messages = Array.isArray(prompt) ? (prompt as readonly unknown[]) : [];
  return (
    messages.find(
      (message) =>
        typeof message === 'object' && message !== null && (message as { role?: unknown }).role === 'user',
    ) ?? null
  );
}
