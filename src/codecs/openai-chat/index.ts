import type { Codec } from '../codec.js';
import { decodeOpenai } from './decode.js';
import { detectOpenai } from './detect.js';
import { openaiDialectFields } from './dialect-fields.js';
import { encodeOpenai } from './encode.js';

/**
 * OpenAI Chat Completions messages and the agent datasets written in that shape (tau-bench, SWE-agent,
 * ToolBench, OpenHands, LLaMA-Factory); see `envelopes/envelope-kind.ts`. Files read with it are written back
 * exactly. What the wire cannot hold when a message is new or changed:
 * - a failed tool result carries `[tool error] ` in front of its text (decoded back as `isError`); a tool message
 *   holding several results becomes one `tool` message per result (OpenAI carries one result per message); an
 *   image from elsewhere inside a tool result becomes `[image omitted]` (tool messages hold only text);
 * - reasoning read from this wire goes back to the key it was read from (`reasoning_content`…), several parts
 *   joined by newlines; reasoning from elsewhere becomes `<think>` text in the content (the Chat Completions API
 *   has no reasoning field); signatures and redacted reasoning (encrypted data only) are dropped;
 * - the text parts of a text-only message are written as one string joined by newlines;
 * - another format's opaque blocks become `[kind omitted]` text; a base64 image without a media type is
 *   written as a `image/png` data URL;
 * - in OpenHands event streams, a message that no longer fits its event gets fresh minimal events, and
 *   parallel tool calls read back as one assistant message per call.
 */
export const openaiCodec: Codec = {
  format: 'openai',
  fileLayout: 'entries',
  capabilities: {
    reasoning: true,
    reasoningForm: 'text',
    reasoningSignatures: false,
    encryptedReasoning: false,
    images: true,
    toolResultImages: false,
    toolErrors: false,
    toolCallIds: true,
    groupedToolResults: false,
    strictAlternation: false,
    systemPrompt: 'message',
    timestamps: false,
    opaqueKinds: new Set(),
  },
  dialectFields: openaiDialectFields,
  detect: detectOpenai,
  decode: decodeOpenai,
  encode: encodeOpenai,
};

export { decodeOpenai, detectOpenai, encodeOpenai };
