/**
 * How a conversation memory tells message sequences apart. Each integration brings its own rule (the AI SDK
 * compares values structurally; the proxy compares wire JSON without cache breakpoints), and the prefix keys,
 * lookups and splices built on it are the same for both.
 */
export interface SequenceIdentity<Message> {
  /** Identifies one message: messages the integration counts as equal must get equal fingerprints. */
  readonly fingerprint: (message: Message) => string;
  /** The hash that chains fingerprints into prefix keys. */
  readonly digest: (text: string) => string;
  /**
   * Confirms a key match message by message, so a collision of a short `digest` can never splice in a foreign
   * replacement. Leave it out only with a collision-resistant `digest`: then the memory keeps no originals.
   */
  readonly same?: (left: Message, right: Message) => boolean;
}

/**
 * One key per prefix length, `keys[i]` naming the first `i + 1` messages (at most `limit` of them), each
 * chained from the one before it. `seed` stands for what comes before the messages (a top-level system prompt),
 * so the same messages under another seed get other keys.
 */
export function prefixKeys<Message>(
  messages: readonly Message[],
  identity: SequenceIdentity<Message>,
  seed = '',
  limit = messages.length,
): string[] {
  const keys: string[] = [];
  const count = Math.min(limit, messages.length);
  let previous = seed;
  for (let index = 0; index < count; index++) {
    previous = identity.digest(`${previous}|${identity.fingerprint(messages[index] as Message)}|${index}`);
    keys.push(previous);
  }
  return keys;
}

/** The key of the first `length` messages (`seed` itself for none); `undefined` when there are fewer. */
export function prefixKey<Message>(
  messages: readonly Message[],
  length: number,
  identity: SequenceIdentity<Message>,
  seed = '',
): string | undefined {
  if (length > messages.length) return undefined;
  return length === 0 ? seed : prefixKeys(messages, identity, seed, length).at(-1);
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
