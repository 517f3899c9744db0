import type { RedactTextResult } from './apply-candidates.js';

/**
 * Results of long texts a redactor has already redacted. Transcripts repeat long texts: Claude Code keeps
 * every tool output twice (the result block and `toolUseResult`), datasets repeat their system prompt on every
 * line, agents read the same file again. A hit costs a hash of the text instead of a scan. Bounded by the
 * characters it holds, oldest dropped first.
 */
export class ResultCache {
  readonly #results = new Map<string, RedactTextResult>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** Texts shorter than this are scanned every time: hashing them would cost about as much. */
  static readonly MIN_LENGTH = 256;

  get(text: string): RedactTextResult | undefined {
    return text.length < ResultCache.MIN_LENGTH ? undefined : this.#results.get(text);
  }

  set(text: string, result: RedactTextResult): void {
    if (text.length < ResultCache.MIN_LENGTH || text.length > this.#maxChars) return;
    this.#results.set(text, result);
    this.#chars += text.length;
    for (const key of this.#results.keys()) {
      if (this.#chars <= this.#maxChars) break;
      this.#results.delete(key);
      this.#chars -= key.length;
    }
  }
}
