/** Options of {@link LruMap}. */
export interface LruMapOptions<K, V> {
  /** Entries kept; setting one more drops the least recently used. Not clamped: 0 keeps nothing. */
  readonly capacity: number;
  /** Called for each entry dropped to make room (not for {@link LruMap.delete} or {@link LruMap.clear}). */
  readonly onEvict?: (key: K, value: V) => void;
}

/**
 * A map bounded to `capacity` entries that drops the least recently used first. `get`, `set` and `getOrCreate`
 * mark an entry used; `peek` and `has` do not. Every bounded memory of the integrations (engines per
 * conversation, stored prefixes, conversations of the proxy, worker routes) is one of these.
 */
export class LruMap<K, V> {
  // A Map iterates in insertion order, so re-inserting on use keeps the least recently used first.
  readonly #entries = new Map<K, V>();
  readonly #capacity: number;
  readonly #onEvict: ((key: K, value: V) => void) | undefined;

  constructor(options: LruMapOptions<K, V>) {
    this.#capacity = options.capacity;
    this.#onEvict = options.onEvict;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value under `key`, marked most recently used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** The value under `key`, without marking it used. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** Stores `value` as the most recently used entry, then drops the least recently used beyond capacity. */
  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#evict();
    return this;
  }

  /** The value under `key` (marked used), or a new one from `create`, stored as most recently used. */
  getOrCreate(key: K, create: (key: K) => V): V {
    if (this.#entries.has(key)) return this.get(key) as V;
    const value = create(key);
    this.set(key, value);
    return value;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** Entries from least to most recently used. */
  entries(): IterableIterator<[K, V]> {
    return this.#entries.entries();
  }

  values(): IterableIterator<V> {
    return this.#entries.values();
  }

  #evict(): void {
    for (const [key, value] of this.#entries) {
      if (this.#entries.size <= this.#capacity) return;
      this.#entries.delete(key);
      this.#onEvict?.(key, value);
    }
  }
}
