import { fnv1a, valueHash } from '../../engines/rules/content-hash.js';
import { sameValue } from './same-value.js';

/** A compacted replacement for the first `length` messages of a transcript. */
export interface PrefixHit<Message> {
  /** How many leading messages of the looked-up transcript the replacement stands for. */
  readonly length: number;
  readonly replacement: readonly Message[];
}

interface Entry<Message> {
  readonly prefix: readonly Message[];
  readonly replacement: readonly Message[];
}

const fingerprints = new WeakMap<object, string>();

/**
 * A cheap content fingerprint of one message, cached per object because the AI SDK hands the same message
 * objects back on every step. A fingerprint only finds candidates; {@link sameValue} confirms them.
 */
function fingerprint(message: unknown): string {
  if (typeof message !== 'object' || message === null) return valueHash(message);
  const known = fingerprints.get(message);
  if (known !== undefined) return known;
  const computed = valueHash(message);
  fingerprints.set(message, computed);
  return computed;
}

/** One key per prefix length: `keys[i]` names the first `i + 1` messages. */
function prefixKeys(messages: readonly unknown[]): string[] {
  const keys: string[] = [];
  let previous = '';
  for (const message of messages) {
    previous = fnv1a(`${previous}|${fingerprint(message)}|${keys.length}`);
    keys.push(previous);
  }
  return keys;
}

/**
 * Remembers, for transcripts already compacted, which replacement stands for which original prefix, so a
 * transcript that grew by a few messages reuses the same compacted prefix instead of being compacted anew: each
 * stretch of history is summarized once, and the prompt's head stays byte-identical for provider caches.
 * Least recently used entries go first once `maxEntries` is reached. A hit is verified message by message, so a
 * fingerprint collision can never splice in a foreign replacement.
 */
export class PrefixCache<Message> {
  readonly #entries = new Map<string, Entry<Message>>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The replacement for the longest cached prefix of `messages`, if any. */
  lookup(messages: readonly Message[]): PrefixHit<Message> | undefined {
    if (this.#entries.size === 0) return undefined;
    const keys = prefixKeys(messages);
    for (let length = keys.length; length > 0; length--) {
      const key = keys[length - 1] as string;
      const entry = this.#entries.get(key);
      if (entry === undefined || !samePrefix(entry.prefix, messages)) continue;
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return { length, replacement: entry.replacement };
    }
    return undefined;
  }

  /** Remembers that `replacement` stands for all of `prefix`. */
  store(prefix: readonly Message[], replacement: readonly Message[]): void {
    if (prefix.length === 0) return;
    const key = prefixKeys(prefix).at(-1) as string;
    this.#entries.delete(key);
    this.#entries.set(key, { prefix: [...prefix], replacement: [...replacement] });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  /** `messages` with the longest cached prefix replaced, and how long that prefix was (0: none). */
  splice(messages: readonly Message[]): { readonly messages: readonly Message[]; readonly reused: number } {
    const hit = this.lookup(messages);
    if (hit === undefined) return { messages, reused: 0 };
    return { messages: [...hit.replacement, ...messages.slice(hit.length)], reused: hit.length };
  }
}

function samePrefix<Message>(prefix: readonly Message[], messages: readonly Message[]): boolean {
  if (prefix.length > messages.length) return false;
  return prefix.every((message, index) => sameValue(message, messages[index]));
}
