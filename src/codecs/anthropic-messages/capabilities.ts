import type { Codec } from '../codec.js';
import { ANTHROPIC_TOOL_ID } from '../provider-rules/anthropic-rules.js';
import { ANTHROPIC_BLOCKS } from './encode-block.js';

/** What Messages API requests can hold; Claude Code records carry the same messages, so they start from it. */
export const ANTHROPIC_CAPABILITIES: Codec['capabilities'] = {
  reasoning: true,
  reasoningForm: 'signed',
  reasoningSignatures: true,
  encryptedReasoning: true,
  images: true,
  toolResultImages: true,
  toolErrors: true,
  toolCallIds: true,
  toolIdPattern: ANTHROPIC_TOOL_ID,
  groupedToolResults: true,
  strictAlternation: true,
  systemPrompt: 'top-level',
  timestamps: false,
  opaqueKinds: ANTHROPIC_BLOCKS,
  objectArguments: true,
};
