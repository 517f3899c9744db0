import type { ContextEngine } from '../../engines/context-engine.js';
import type { StoredPrefix } from './prefix-splice.js';

/** The last compaction of a conversation and its token figures (rough estimates). */
export interface StoredCompaction {
  readonly prefix: StoredPrefix;
  /** Tokens of the original messages the prefix stands for. */
  readonly originalTokens: number;
  /** Tokens of the replacement. */
  readonly replacementTokens: number;
}

/** What the proxy remembers of one conversation. */
export interface Conversation {
  /** Short public id (a hash), for the `x-condense` header and logs. */
  readonly id: string;
  readonly engine: ContextEngine;
  /** The last compaction, spliced into later requests that start with the same history. */
  last: StoredCompaction | undefined;
  /** Runs `task` after every earlier task of this conversation: one compaction at a time per conversation. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * Conversations by key, least recently used dropped first once `capacity` is reached. A dropped conversation
 * still finishes the requests in flight; its next request starts afresh.
 */
export class ConversationStore {
  readonly #entries = new Map<string, Conversation>();
  readonly #capacity: number;
  readonly #newEngine: () => ContextEngine;

  constructor(capacity: number, newEngine: () => ContextEngine) {
    this.#capacity = capacity;
    this.#newEngine = newEngine;
  }

  /** Conversations remembered now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The conversation under `key`, made (and the oldest dropped) when it is new; marks it recently used. */
  get(key: string, id: string): Conversation {
    const known = this.#entries.get(key);
    if (known !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, known);
      return known;
    }
    const created = newConversation(id, this.#newEngine());
    this.#entries.set(key, created);
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    return created;
  }

  /** True when `key` is remembered (does not mark it used). */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The conversation under `key` when it is remembered (does not mark it used, never makes one). */
  peek(key: string): Conversation | undefined {
    return this.#entries.get(key);
  }
}

function newConversation(id: string, engine: ContextEngine): Conversation {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    id,
    engine,
    last: undefined,
    exclusive<T>(task: () => Promise<T>): Promise<T> {
      const run = tail.then(task, task);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}
