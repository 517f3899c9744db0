import type { Codec } from '../codec.js';

/** Placeholder until the openai codec lands: detects nothing, decodes to an empty transcript. */
export const openaiCodec: Codec = {
  format: 'openai',
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
