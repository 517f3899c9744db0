import type { Codec } from '../codec.js';

/** Placeholder until the claude-code codec lands: detects nothing, decodes to an empty transcript. */
export const claudeCodeCodec: Codec = {
  format: 'claude-code',
  fileLayout: 'records',
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
