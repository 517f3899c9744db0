import { runningFnv1a, valueHash } from '../../model/value-hash.js';
import { replacePrefix } from '../conversation-memory/prefix-identity.js';
import { PrefixMemory } from '../conversation-memory/prefix-memory.js';
import { sameValue } from './same-value.js';

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

/** AI SDK messages are the same when they are structurally equal (binary parts by their bytes). */
const structural = { fingerprint, hash: runningFnv1a, same: sameValue };

/**
 * Remembers, for transcripts already compacted, which replacement stands for which original prefix, so a
 * transcript that grew by a few messages reuses the same compacted prefix instead of being compacted anew: each
 * stretch of history is summarized once, and the prompt's head stays byte-identical for provider caches.
 * Least recently used entries go first once `maxEntries` is reached. A hit is verified message by message, so a
 * fingerprint collision can never splice in a foreign replacement. The AI SDK's view of a {@link PrefixMemory}.
 */
export class PrefixCache<Message> {
  readonly #memory: PrefixMemory<Message, readonly Message[]>;

  constructor(maxEntries: number) {
    this.#memory = new PrefixMemory<Message, readonly Message[]>({
      capacity: Math.max(1, maxEntries),
      identity: structural,
    });
  }

  get size(): number {
    return this.#memory.size;
  }

  /** Remembers that `replacement` stands for all of `prefix`. */
  store(prefix: readonly Message[], replacement: readonly Message[]): void {
    // Without a seed an empty prefix would stand before every transcript.
    if (prefix.length > 0) this.#memory.store(prefix, [...replacement]);
  }

  /** `messages` with the longest cached prefix replaced, and how long that prefix was (0: none). */
  splice(messages: readonly Message[]): { readonly messages: readonly Message[]; readonly reused: number } {
    const hit = this.#memory.lookup(messages);
    if (hit === undefined) return { messages, reused: 0 };
    return { messages: replacePrefix(messages, hit.length, hit.value), reused: hit.length };
  }
}
