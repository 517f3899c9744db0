import type { Message } from '../../model/message.js';
import type { DecodeIssue } from '../codec.js';
import { isWireObject } from '../wire-object.js';
import { type ChatDecodeState, decodeChatMessage } from './decode-message.js';
import { encodeChatMessage } from './encode-message.js';
import { PendingCalls } from './pending-calls.js';

/** Decoded chat messages, whether they use LLaMA-Factory's typed parts, and what was noticed. */
export interface DecodedChat {
  readonly messages: Message[];
  /** True when content parts are written `{type, value}` (LLaMA-Factory) rather than `{type:'text', text}`. */
  readonly typed: boolean;
  readonly issues: DecodeIssue[];
}

/**
 * Decodes an array of chat messages. Tool messages without an id are matched to the unanswered calls of the
 * assistant message before them, in order; legacy `function_call`s and typed tool calls get deterministic ids
 * (`call_legacy_<i>`, `call_<i>_<k>`) that are never written back.
 */
export function decodeChatMessages(
  wire: readonly unknown[],
  path: readonly (string | number)[],
): DecodedChat {
  const state: ChatDecodeState = { pending: new PendingCalls(), issues: [], path };
  const messages = wire.map((item, index) => decodeChatMessage(item, index, state));
  return { messages, typed: wire.some(usesTypedParts), issues: state.issues };
}

/** Encodes messages back into a chat message array. */
export function encodeChatMessages(messages: readonly Message[], typed: boolean): unknown[] {
  return messages.flatMap((message) => encodeChatMessage(message, typed));
}

function usesTypedParts(message: unknown): boolean {
  if (!isWireObject(message) || !Array.isArray(message['content'])) return false;
  return message['content'].some(
    (part) => isWireObject(part) && typeof part['value'] === 'string' && !('text' in part),
  );
}
