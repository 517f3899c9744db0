import { parseCheckpoint } from '../../transforms/checkpoint-text.js';
import { stripReasoningTags } from '../serialize-turns.js';

/**
 * The checkpoint body inside a model's answer: reasoning blocks removed, a code fence around the whole answer
 * removed, a copied condense or Hermes header dropped, whitespace trimmed. Returns '' when nothing usable is left, and
 * for an answer that is a provider error object rather than a checkpoint.
 */
export function cleanAnswer(answer: string): string {
  let text = stripReasoningTags(answer).trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced?.[1] !== undefined) text = fenced[1].trim();
  // A model that copies a checkpoint header (ours or Hermes') wrote the body after it.
  const copied = parseCheckpoint(text);
  if (copied !== undefined && copied.author !== 'claude-code') text = copied.body.trim();
  if (looksLikeErrorObject(text)) return '';
  return text;
}

function looksLikeErrorObject(text: string): boolean {
  if (!text.startsWith('{') || !text.endsWith('}')) return false;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && 'error' in parsed;
  } catch {
    return false;
  }
}
