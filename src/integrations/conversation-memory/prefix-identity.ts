/** A hash fed text piece by piece; `digest` reads the hash of everything fed so far, and more may follow. */
export interface RunningHash {
  update(text: string): void;
  digest(): string;
}

/**
 * How a conversation memory tells message sequences apart. Each integration brings its own rule (the AI SDK
 * compares values structurally; the proxy compares wire JSON without cache breakpoints), and the prefix keys,
 * lookups and splices built on it are the same for both.
 */
export interface SequenceIdentity<Message> {
  /** Identifies one message: messages the integration counts as equal must get equal fingerprints. */
  readonly fingerprint: (message: Message) => string;
  /** A fresh running hash, fed the seed and then each fingerprint. */
  readonly hash: () => RunningHash;
  /**
   * Confirms a key match message by message, so a collision of a short hash can never splice in a foreign
   * replacement. Leave it out only with a collision-resistant hash: then the memory keeps no originals.
   */
  readonly same?: (left: Message, right: Message) => boolean;
}

/**
 * The keys of the first `length` messages, for each of `lengths` that `messages` is long enough for, in one
 * pass. `seed` stands for what comes before the messages (a top-level system prompt), so the same messages under
 * another seed get other keys. Every piece is fed with its length in front, so no two sequences feed the same
 * text.
 */
export function prefixKeysAt<Message>(
  messages: readonly Message[],
  identity: SequenceIdentity<Message>,
  seed: string,
  lengths: Iterable<number>,
): Map<number, string> {
  const wanted = new Set(lengths);
  let last = -1;
  for (const length of wanted) if (length <= messages.length) last = Math.max(last, length);
  const keys = new Map<number, string>();
  if (last < 0) return keys;
  const hash = identity.hash();
  hash.update(`${seed.length}:${seed}`);
  for (let length = 0; ; length++) {
    if (wanted.has(length)) keys.set(length, hash.digest());
    if (length === last) return keys;
    const fingerprint = identity.fingerprint(messages[length] as Message);
    hash.update(`${fingerprint.length}:`);
    hash.update(fingerprint);
  }
}

/** The key of the first `length` messages; `undefined` when there are fewer. */
export function prefixKey<Message>(
  messages: readonly Message[],
  length: number,
  identity: SequenceIdentity<Message>,
  seed = '',
): string | undefined {
  return prefixKeysAt(messages, identity, seed, [length]).get(length);
}

/**
 * `messages` with its first `length` replaced by `replacement`; every later message is the very same value.
 * A new array: neither input is changed.
 */
export function replacePrefix<Message>(
  messages: readonly Message[],
  length: number,
  replacement: readonly Message[],
): Message[] {
  return [...replacement, ...messages.slice(length)];
}
