import type { Message } from '../model/message.js';
import type { Part } from '../model/part.js';
import type { Transcript } from '../model/transcript.js';

/**
 * Counts tokens the way a model sees a transcript. Implementations cache per message (by object identity), so
 * re-counting a transcript that grew by a few messages costs only the new ones.
 */
export interface TokenCounter {
  /** `rough`, an encoding name (`o200k_base`, `cl100k_base`) or `hf:<tokenizer name>`. */
  readonly name: string;
  /** False for estimators. */
  readonly exact: boolean;
  /** Tokens of a piece of text. Linear time on any input; special-token text is counted as text. */
  countText(text: string): number;
  /** Tokens of one part as the model sees it (tool-call arguments included, images at a fixed cost). */
  countPart(part: Part): number;
  /** Tokens of one message, including the per-message framing overhead. Cached per message object. */
  countMessage(message: Message): number;
  /** Tokens of a whole transcript. */
  countTranscript(transcript: Transcript): number;
}
