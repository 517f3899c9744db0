import type { RedactTextResult } from './apply-candidates.js';

interface Entry {
  readonly key: string;
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
  /**
   * Entries in the order they were set, oldest first from `#head`; one that was set again since is stale and
   * skipped. Dropping from the head of a Map instead would walk over every entry it deleted before (they stay
   * as holes until it rehashes): quadratic once the cache is full.
   */
  #order: Entry[] = [];
  #head = 0;
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
    const entry = { key, text, result };
    this.#entries.set(key, entry);
    this.#order.push(entry);
    this.#chars += text.length;
    while (this.#chars > this.#maxChars) {
      const oldest = this.#order[this.#head++] as Entry;
      if (this.#entries.get(oldest.key) !== oldest) continue;
      this.#entries.delete(oldest.key);
      this.#chars -= oldest.text.length;
    }
    // Keep the queue within twice the live entries (stale ones would hold their texts), in amortised O(1).
    if (this.#order.length - this.#head > 2 * this.#entries.size + 64) {
      this.#order = this.#order.slice(this.#head).filter((live) => this.#entries.get(live.key) === live);
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }
}

function fingerprint(text: string): string {
  return `${text.length}:${text.slice(0, 48)}${text.slice(-48)}`;
}
