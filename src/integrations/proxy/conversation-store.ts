import type { ContextEngine } from '../../engines/context-engine.js';
import { LruMap } from '../conversation-memory/lru-map.js';
import { PrefixMemory } from '../conversation-memory/prefix-memory.js';
import { type WireReplacement, wireIdentity } from './prefix-splice.js';

/** A compaction of a conversation and its token figures (rough estimates). */
export interface StoredCompaction extends WireReplacement {
  /** Tokens of the original messages the replacement stands for. */
  readonly originalTokens: number;
  /** Tokens of the replacement. */
  readonly replacementTokens: number;
}

/** What the proxy remembers of one conversation. */
export interface Conversation {
  /** Short public id (a hash), for the `x-condense` header and logs. */
  readonly id: string;
  readonly engine: ContextEngine;
  /**
   * The last compaction, keyed by the original wire messages it replaced (under the system prompt's seed) and
   * spliced into later requests that start with the same history. Only the last: the engine's checkpoint
   * follows it.
   */
  readonly compactions: PrefixMemory<unknown, StoredCompaction>;
  /** Runs `task` after every earlier task of this conversation: one compaction at a time per conversation. */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * Conversations by key, least recently used dropped first once `capacity` is reached. A dropped conversation
 * still finishes the requests in flight; its next request starts afresh.
 */
export class ConversationStore {
  readonly #entries: LruMap<string, Conversation>;
  readonly #newEngine: () => ContextEngine;

  constructor(capacity: number, newEngine: () => ContextEngine) {
    this.#entries = new LruMap({ capacity });
    this.#newEngine = newEngine;
  }

  /** Conversations remembered now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The conversation under `key`, made (and the oldest dropped) when it is new; marks it recently used. */
  get(key: string, id: string): Conversation {
    return this.#entries.getOrCreate(key, () => newConversation(id, this.#newEngine()));
  }

  /** True when `key` is remembered (does not mark it used). */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The conversation under `key` when it is remembered (does not mark it used, never makes one). */
  peek(key: string): Conversation | undefined {
    return this.#entries.peek(key);
  }
}

function newConversation(id: string, engine: ContextEngine): Conversation {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    id,
    engine,
    compactions: new PrefixMemory({ capacity: 1, identity: wireIdentity }),
    exclusive<T>(task: () => Promise<T>): Promise<T> {
      const run = tail.then(task, task);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}
