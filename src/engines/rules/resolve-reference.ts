import type { Message } from '../../model/message.js';
import { looseMessageHash, messageHash } from './content-hash.js';
import { type ElementRef, indexOfLabel } from './references.js';

/** Finds messages of an original transcript by reference and by content. */
export interface ReferenceResolver {
  /** The index a reference points at: its label (id or `m<index>`) when the hash agrees, else the first message with that hash. */
  resolve(ref: ElementRef): number | undefined;
  /**
   * The first index at or after `from` holding this very message or one with the same content; failing that,
   * the same content up to tool-call ids (formats that number ids by position renumber them on re-encoding).
   */
  locate(message: Message, from: number): number | undefined;
}

/** A resolver over `messages`; hashes and indexes are computed lazily, once. */
export function createReferenceResolver(messages: readonly Message[]): ReferenceResolver {
  const hashes: (string | undefined)[] = [];
  let ids: Map<string, number> | undefined;
  let byHash: Map<string, number[]> | undefined;
  let byLooseHash: Map<string, number[]> | undefined;
  const hashAt = (index: number): string | undefined => {
    const message = messages[index];
    if (message === undefined) return undefined;
    hashes[index] ??= messageHash(message);
    return hashes[index];
  };
  const hashIndex = (): Map<string, number[]> => {
    byHash ??= indexBy(messages, (_, index) => hashAt(index) as string);
    return byHash;
  };
  return {
    resolve(ref) {
      if (ids === undefined) {
        ids = new Map();
        messages.forEach((message, index) => {
          if (message.id !== undefined && !ids?.has(message.id)) ids?.set(message.id, index);
        });
      }
      for (const candidate of [ids.get(ref.label), indexOfLabel(ref.label)]) {
        if (candidate !== undefined && hashAt(candidate) === ref.hash) return candidate;
      }
      return hashIndex().get(ref.hash)?.[0];
    },
    locate(message, from) {
      if (messages[from] === message) return from;
      const hash = messageHash(message);
      if (hashAt(from) === hash) return from;
      const exact = hashIndex()
        .get(hash)
        ?.find((index) => index >= from);
      if (exact !== undefined) return exact;
      byLooseHash ??= indexBy(messages, looseMessageHash);
      return byLooseHash.get(looseMessageHash(message))?.find((index) => index >= from);
    },
  };
}

function indexBy(
  messages: readonly Message[],
  key: (message: Message, index: number) => string,
): Map<string, number[]> {
  const out = new Map<string, number[]>();
  messages.forEach((message, index) => {
    const value = key(message, index);
    const list = out.get(value);
    if (list === undefined) out.set(value, [index]);
    else list.push(index);
  });
  return out;
}
