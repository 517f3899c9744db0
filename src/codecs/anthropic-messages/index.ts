import type { Codec } from '../codec.js';

/** Placeholder until the anthropic codec lands: detects nothing, decodes to an empty transcript. */
export const anthropicCodec: Codec = {
  format: 'anthropic',
  fileLayout: 'entries',
  capabilities: {
    reasoning: true,
    images: true,
    groupedToolResults: true,
    strictAlternation: false,
    systemPrompt: 'message',
  },
  detect: () => 0,
  decode: () => ({ value: { messages: [] }, issues: [] }),
  encode: () => ({}),
};
