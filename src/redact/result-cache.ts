import type { RedactTextResult } from './apply-candidates.js';

interface Entry {
  readonly text: string;
  readonly result: RedactTextResult;
}

/**
 * Results of long texts a redactor has already redacted. Transcripts repeat long texts: Claude Code keeps
 * every tool output twice (the result block and `toolUseResult`), datasets repeat their system prompt on every
 * line, agents read the same file again. Entries are found by a short fingerprint (length, head and tail) and
 * confirmed by comparing the texts, which is cheaper than hashing every character of every text. Bounded by
 * the characters it holds, oldest dropped first.
 */
export class ResultCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** Texts shorter than this are scanned every time: finding them would cost about as much. */
  static readonly MIN_LENGTH = 256;

  get(text: string): RedactTextResult | undefined {
    if (text.length < ResultCache.MIN_LENGTH) return undefined;
    const entry = this.#entries.get(fingerprint(text));
    return entry !== undefined && entry.text === text ? entry.result : undefined;
  }

  set(text: string, result: RedactTextResult): void {
    if (text.length < ResultCache.MIN_LENGTH || text.length > this.#maxChars) return;
    const key = fingerprint(text);
    const previous = this.#entries.get(key);
    if (previous !== undefined) this.#chars -= previous.text.length;
    this.#entries.delete(key);
    this.#entries.set(key, { text, result });
    this.#chars += text.length;
    for (const [oldest, entry] of this.#entries) {
      if (this.#chars <= this.#maxChars) break;
      this.#entries.delete(oldest);
      this.#chars -= entry.text.length;
    }
  }
}

function fingerprint(text: string): string {
  return `${text.length}:${text.slice(0, 48)}${text.slice(-48)}`;
}
