import { isJsonObject } from '../../model/json.js';
import type { Codec, DetectScore } from '../codec.js';
import { decodeAiSdk } from './decode.js';
import { encodeAiSdk } from './encode.js';

export { decodeAiSdk } from './decode.js';
export { encodeAiSdk } from './encode.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const DISTINCT_TYPES = new Set([
  'tool-call',
  'tool-result',
  'reasoning',
  'tool-approval-request',
  'tool-approval-response',
]);

/** 0: not a ModelMessage, 1: a plain `{role, content}` message, 2: a message with AI SDK-only features. */
function scoreMessage(message: unknown): DetectScore {
  if (!isJsonObject(message) || !ROLES.has(message['role'] as string)) return 0;
  const content = message['content'];
  if (typeof content === 'string') return message['providerOptions'] === undefined ? 1 : 2;
  if (!Array.isArray(content)) return 0;
  let score: DetectScore = message['providerOptions'] === undefined ? 1 : 2;
  for (const part of content) {
    if (!isJsonObject(part) || typeof part['type'] !== 'string') return 0;
    if (DISTINCT_TYPES.has(part['type']) || 'toolCallId' in part || 'providerOptions' in part) score = 2;
  }
  return score;
}

/**
 * Scores a value as AI SDK messages (a `ModelMessage[]` or `{ messages: ModelMessage[] }`): 2 when some part is
 * distinctive (`tool-call`/`tool-result` parts with `toolCallId`, `reasoning` parts, `providerOptions`), 1 when
 * every message is a plain `{role, content}` that other formats share, 0 otherwise.
 */
export function detectAiSdk(wire: unknown): DetectScore {
  const list = Array.isArray(wire) ? wire : isJsonObject(wire) ? wire['messages'] : undefined;
  if (!Array.isArray(list)) return 0;
  if (list.length === 0) return Array.isArray(wire) ? 0 : 1;
  let score: DetectScore = 1;
  for (const message of list) {
    const one = scoreMessage(message);
    if (one === 0) return 0;
    if (one === 2) score = 2;
  }
  return score;
}

/**
 * Vercel AI SDK v6 `ModelMessage[]` (what `generateText({ messages })` takes and `response.messages` returns).
 * Written as `{ "messages": [...] }`. See {@link decodeAiSdk} and {@link encodeAiSdk}.
 */
export const aiSdkCodec: Codec = {
  format: 'ai-sdk',
  fileLayout: 'entries',
  capabilities: {
    reasoning: true,
    reasoningForm: 'native',
    reasoningSignatures: true,
    encryptedReasoning: true,
    images: true,
    toolResultImages: true,
    toolErrors: true,
    toolCallIds: true,
    groupedToolResults: true,
    strictAlternation: false,
    systemPrompt: 'message',
    timestamps: false,
    opaqueKinds: new Set(),
  },
  detect: detectAiSdk,
  decode: decodeAiSdk,
  encode: encodeAiSdk,
};
