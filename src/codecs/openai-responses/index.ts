import type { Codec } from '../codec.js';
import { decodeResponses } from './decode.js';
import { detectResponses } from './detect.js';
import { encodeResponses } from './encode.js';

/** What Responses item lists can hold; Codex rollouts hold the same items, so they share it. */
export const RESPONSES_CAPABILITIES: Codec['capabilities'] = {
  reasoning: true,
  // Reasoning reaches another format's transcript without its item (conversions drop part meta), and the API
  // takes back only its own items: such reasoning is written as `<think>` text, encrypted reasoning is lost.
  reasoningForm: 'text',
  reasoningSignatures: false,
  encryptedReasoning: false,
  images: true,
  toolResultImages: false,
  toolErrors: false,
  toolCallIds: true,
  groupedToolResults: false,
  strictAlternation: false,
  systemPrompt: 'top-level',
  timestamps: false,
  opaqueKinds: new Set(),
};

/**
 * OpenAI Responses API conversations: request bodies (`instructions` + `input` items), response objects and bare
 * item lists. Messages are `message` items; a run of model items (reasoning, assistant messages, function,
 * custom and built-in calls, server-side tool items) is one assistant message; each output item is one tool
 * message, paired with its call by `call_id`. Reasoning items (summaries and `encrypted_content`) and every item
 * condense does not read (web and file search, code interpreter, image generation, MCP, compaction, item
 * references) are carried byte-exact. Files read with it are written back exactly. What the wire cannot hold when
 * a message is new or changed:
 * - reasoning from another format is written as `<think>` text, read back as reasoning (the API accepts only its
 *   own reasoning items); its encrypted data is lost;
 * - `isError` of a tool result becomes the `[tool error] ` marker in its text (output items have no error flag;
 *   Codex's `{content, success}` keeps it);
 * - images in assistant messages and another format's opaque parts become `[… omitted]` text;
 * - leading system messages of another format become `instructions`, joined by blank lines.
 */
export const responsesCodec: Codec = {
  format: 'openai-responses',
  fileLayout: 'entries',
  capabilities: RESPONSES_CAPABILITIES,
  detect: detectResponses,
  decode: decodeResponses,
  encode: encodeResponses,
};

export { type DecodedUnit, decodeItems } from './decode-items.js';
export { callTypesOf, encodeMessageItems } from './encode-items.js';
export { type ItemViolation, type ItemViolationCode, verifyResponsesInput } from './verify-items.js';
export { decodeResponses, detectResponses, encodeResponses };
