import { isJsonObject } from '../../model/json.js';
import type { Codec, DetectScore } from '../codec.js';
import { decodeShareGpt } from './decode.js';
import { sharegptDialectFields } from './dialect-fields.js';
import { encodeShareGpt } from './encode.js';

export { decodeShareGpt } from './decode.js';
export { encodeShareGpt } from './encode.js';

/**
 * Scores a value as a ShareGPT entry: 2 when `conversations` holds `{from, value}` turns, 1 for an empty
 * `conversations` array, 0 otherwise (arrays are dataset files of entries, scored entry by entry).
 */
export function detectShareGpt(wire: unknown): DetectScore {
  if (!isJsonObject(wire)) return 0;
  const conversations = wire['conversations'];
  if (!Array.isArray(conversations)) return 0;
  if (conversations.length === 0) return 1;
  const first: unknown = conversations[0];
  return isJsonObject(first) && typeof first['from'] === 'string' && 'value' in first ? 2 : 0;
}

/**
 * ShareGPT trajectories (`{"conversations": [{"from", "value"}]}`): Hermes-agent trajectory files (JSONL, tool
 * calls as `<tool_call>` tags) and LLaMA-Factory/glaive datasets (JSON arrays, `function_call`/`observation`
 * turns). See {@link decodeShareGpt} and {@link encodeShareGpt} for what is kept and what cannot be said.
 */
export const sharegptCodec: Codec = {
  format: 'sharegpt',
  fileLayout: 'entries',
  capabilities: {
    reasoning: true,
    reasoningForm: 'native',
    reasoningSignatures: false,
    encryptedReasoning: false,
    images: false,
    toolResultImages: false,
    toolErrors: false,
    toolCallIds: false,
    groupedToolResults: true,
    strictAlternation: false,
    systemPrompt: 'message',
    timestamps: false,
    opaqueKinds: new Set(),
  },
  dialectFields: sharegptDialectFields,
  detect: detectShareGpt,
  decode: decodeShareGpt,
  encode: encodeShareGpt,
};
