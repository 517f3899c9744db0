import { LruMap } from './lru-map.js';
import { prefixKey, prefixKeysAt, type SequenceIdentity } from './prefix-identity.js';

/** What a {@link PrefixMemory} found for a message sequence. */
export interface PrefixHit<Value> {
  /** How many leading messages of the looked-up sequence the stored value stands for. */
  readonly length: number;
  readonly value: Value;
}

interface Entry<Message, Value> {
  readonly length: number;
  readonly seed: string;
  /** The original messages, kept only when the identity confirms hits message by message. */
  readonly prefix: readonly Message[] | undefined;
  readonly value: Value;
}

/** Options of {@link PrefixMemory}. */
export interface PrefixMemoryOptions<Message> {
  /** Prefixes remembered; the least recently used is forgotten first. Not clamped. */
  readonly capacity: number;
  readonly identity: SequenceIdentity<Message>;
}

/**
 * Remembers "these original leading messages were replaced by this" (`Value`: the compacted messages, and
 * whatever an integration keeps beside them), and finds the longest remembered prefix of a new sequence.
 * Clients re-send their whole history, so a request that grew by a few messages starts with a stored prefix:
 * splicing its replacement in means each stretch of history is compacted once, and the head of the prompt
 * stays byte-identical for provider prompt caches. Pure: no input is changed, originals are copied on store.
 */
export class PrefixMemory<Message, Value> {
  readonly #entries: LruMap<string, Entry<Message, Value>>;
  readonly #identity: SequenceIdentity<Message>;

  constructor(options: PrefixMemoryOptions<Message>) {
    this.#entries = new LruMap({ capacity: options.capacity });
    this.#identity = options.identity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The longest stored prefix of `messages` (under the same `seed`) and its value, marked recently used; a
   * prefix is found only when every one of its messages is the same as stored (by key, and by the identity's
   * `same` when it has one).
   */
  lookup(messages: readonly Message[], seed = ''): PrefixHit<Value> | undefined {
    if (this.#entries.size === 0) return undefined;
    // Only the lengths stored can match: the keys of those are all that is hashed out.
    const lengths = new Set<number>();
    for (const entry of this.#entries.values()) lengths.add(entry.length);
    const keys = prefixKeysAt(messages, this.#identity, seed, lengths);
    for (const [length, key] of [...keys].sort(([left], [right]) => right - left)) {
      const entry = this.#entries.peek(key);
      if (entry === undefined || !this.#confirms(entry, messages, length, seed)) continue;
      this.#entries.get(key);
      return { length, value: entry.value };
    }
    return undefined;
  }

  /**
   * Remembers that `value` stands for all of `prefix` (under `seed`). An empty prefix stands before every
   * sequence under the same seed.
   */
  store(prefix: readonly Message[], value: Value, seed = ''): void {
    const key = prefixKey(prefix, prefix.length, this.#identity, seed) as string;
    const kept = this.#identity.same === undefined ? undefined : [...prefix];
    this.#entries.set(key, { length: prefix.length, seed, prefix: kept, value });
  }

  /** Forgets every stored prefix. */
  clear(): void {
    this.#entries.clear();
  }

  /** A key match is a hit when length and seed match too, and every message where the identity can tell. */
  #confirms(
    entry: Entry<Message, Value>,
    messages: readonly Message[],
    length: number,
    seed: string,
  ): boolean {
    if (entry.length !== length || entry.seed !== seed) return false;
    const same = this.#identity.same;
    if (same === undefined || entry.prefix === undefined) return true;
    return entry.prefix.every((message, index) => same(message, messages[index] as Message));
  }
}
