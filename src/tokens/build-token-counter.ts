import type { Message } from '../model/message.js';
import type { Part } from '../model/part.js';
import {
  type CountingOptions,
  type ResolvedCountingOptions,
  resolveCountingOptions,
} from './counting-options.js';
import type { TokenCounter } from './token-counter.js';

/** What distinguishes one counter from another: its name, whether it is exact, and how it counts text. */
export interface TextTokenCounter {
  readonly name: string;
  readonly exact: boolean;
  /** Tokens of a text; must be linear in its length and never throw. */
  countText(text: string): number;
}

/** Texts at least this long are remembered once counted (see `countText` below). */
const REMEMBERED_LENGTH = 1_024;

/**
 * A full {@link TokenCounter} from a text counter: parts, messages and transcripts are priced the same way for
 * every counter (see {@link CountingOptions}), and message counts are cached by message object in a `WeakMap`
 * owned by this counter, so re-counting a transcript that grew by k messages counts only those k. Messages are
 * immutable by contract; a message mutated after it was counted keeps its old count. The counter also holds the
 * last text of 1,024 characters or more it counted, until it counts another.
 */
export function buildTokenCounter(base: TextTokenCounter, options: CountingOptions = {}): TokenCounter {
  const resolved = resolveCountingOptions(options);
  // A text just counted is often counted again at once (a checkpoint for the report, then in its message), so
  // the last long one is remembered. Comparing it costs far less than counting, even when the lengths match.
  let lastText = '';
  let lastTokens = 0;
  const countText = (text: string): number => {
    if (text.length < REMEMBERED_LENGTH) return base.countText(text);
    if (text === lastText) return lastTokens;
    lastTokens = base.countText(text);
    lastText = text;
    return lastTokens;
  };
  const cache = new WeakMap<Message, number>();
  const counter: TokenCounter = {
    name: base.name,
    exact: base.exact,
    countText,
    countPart(part) {
      return partTokens(part, countText, resolved);
    },
    countMessage(message) {
      const cached = cache.get(message);
      if (cached !== undefined) return cached;
      let tokens = resolved.messageOverhead;
      const parts = message.parts;
      for (let index = 0; index < parts.length; index++)
        tokens += partTokens(parts[index] as Part, countText, resolved);
      cache.set(message, tokens);
      return tokens;
    },
    countTranscript(transcript) {
      let tokens = 0;
      const messages = transcript.messages;
      for (let index = 0; index < messages.length; index++)
        tokens += counter.countMessage(messages[index] as Message);
      return tokens;
    },
  };
  return counter;
}

/**
 * Tokens of one part as the model sees it. Tool calls count their name and arguments, tool results their
 * content, reasoning its text and any encrypted `data` passed back with it (the signature is not shown to the
 * model), opaque parts the JSON text of their value, images a fixed cost.
 */
function partTokens(
  part: Part,
  countText: (text: string) => number,
  options: ResolvedCountingOptions,
): number {
  switch (part.type) {
    case 'text':
      return countText(part.text);
    case 'image':
      return options.imageTokens;
    case 'tool-call':
      return options.toolCallOverhead + countText(part.name) + countText(part.arguments);
    case 'tool-result': {
      let tokens = options.toolResultOverhead;
      // A result's content parts are parts of the same kinds, priced the same way.
      for (const inner of part.content) tokens += partTokens(inner, countText, options);
      return tokens;
    }
    case 'reasoning':
      return countText(part.text) + (part.data === undefined ? 0 : countText(part.data));
    case 'opaque':
      return countText(jsonText(part.value));
  }
}

/** JSON text of a value; values that JSON cannot represent (only possible from untyped callers) count as empty. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
