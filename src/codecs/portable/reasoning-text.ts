import type { TextPart } from '../../model/part.js';

/**
 * Reasoning written as text, for a wire with no slot for it (OpenAI Chat Completions) or that accepts only
 * provider-signed thinking (Anthropic, Claude Code): the `<think>` tags reasoning models and their datasets use,
 * so a reader (and the model) can tell reasoning from the answer.
 */
export function reasoningAsText(text: string): string {
  return `<think>\n${text}\n</think>`;
}

/** A text part holding reasoning in `<think>` tags. */
export function reasoningTextPart(text: string): TextPart {
  return { type: 'text', text: reasoningAsText(text) };
}

/** Reasoning in `<think>` tags at the start of a text, and the text after it (`undefined` when there is none). */
export function splitReasoningText(
  text: string,
): { reasoning: string; rest: string | undefined } | undefined {
  if (!text.startsWith('<think>\n')) return undefined;
  const end = text.indexOf('\n</think>');
  if (end === -1) return undefined;
  const after = text.slice(end + '\n</think>'.length);
  if (after !== '' && !after.startsWith('\n')) return undefined;
  return { reasoning: text.slice('<think>\n'.length, end), rest: after === '' ? undefined : after.slice(1) };
}
