import type { Codec } from '../codec.js';
import { ANTHROPIC_CAPABILITIES } from './capabilities.js';
import { decodeAnthropic } from './decode.js';
import { detectAnthropic } from './detect.js';
import { anthropicDialectFields } from './dialect-fields.js';
import { encodeAnthropic } from './encode.js';

/**
 * Anthropic Messages API requests `{system?, messages, …}` (or a bare message array). User messages holding
 * `tool_result` blocks are split into a tool message and a user message on decode and merged back exactly on
 * encode. A transcript from another format always becomes a valid request:
 * - leading system messages become `system` (joined by a blank line); a system message later in the
 *   conversation becomes user text inside `<system-reminder>` tags;
 * - tool messages and the user message after them become one user message, tool_result blocks first;
 *   neighbouring messages of the same role are merged; a conversation opening with the assistant gets a
 *   `(continued)` user turn first;
 * - reasoning without a signature becomes `<think>` text (Anthropic rejects unsigned thinking); whitespace-only
 *   text is left out; argument text that is not a JSON object is sent as `{"_raw_arguments": text}`;
 * - tool ids Anthropic rejects (outside `^[a-zA-Z0-9_-]+$`, or one id reused by several calls) are rewritten to
 *   valid unique ones, calls and results alike (`planToolIds`);
 * - another format's opaque parts become `[kind omitted]` text unless they are Anthropic blocks; a base64
 *   image without a media type gets one guessed from its first bytes.
 */
export const anthropicCodec: Codec = {
  format: 'anthropic',
  fileLayout: 'entries',
  capabilities: ANTHROPIC_CAPABILITIES,
  dialectFields: anthropicDialectFields,
  detect: detectAnthropic,
  decode: decodeAnthropic,
  encode: encodeAnthropic,
};

export { decodeAnthropic, detectAnthropic, encodeAnthropic };
