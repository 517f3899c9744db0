import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../support/property-seed.js';
import {
  prefixKey,
  prefixKeysAt,
  type RunningHash,
  replacePrefix,
  type SequenceIdentity,
} from '../../../src/integrations/conversation-memory/prefix-identity.js';
import { PrefixMemory } from '../../../src/integrations/conversation-memory/prefix-memory.js';

type Message = { readonly role: string; readonly text: string };

const message: fc.Arbitrary<Message> = fc.record(
  {
    role: fc.constantFrom('user', 'assistant', 'tool'),
    text: fc.constantFrom('a', 'b', 'c', 'ok', 'run tests'),
  },
  { noNullPrototype: true },
);
// Few distinct messages, so stored prefixes and looked-up sequences often share heads.
const sequence = fc.array(message, { maxLength: 8 });
const json = (value: unknown) => JSON.stringify(value);

function sha256(): RunningHash {
  const hash = createHash('sha256');
  return { update: (text) => hash.update(text), digest: () => hash.copy().digest('hex') };
}
/** A hash with three values: nearly every pair of prefixes collides. */
function weak(): RunningHash {
  let fed = 0;
  return {
    update: (text) => {
      fed += text.length;
    },
    digest: () => String(fed % 3),
  };
}
const sameJson = (left: unknown, right: unknown) => json(left) === json(right);

/** Confirmed identity with a digest that collides all the time: only `same` keeps hits honest. */
const colliding: SequenceIdentity<Message> = {
  fingerprint: json,
  hash: weak,
  same: sameJson,
};
/** Confirmed identity with a digest that does not collide, as the AI SDK keeps it. */
const confirmed: SequenceIdentity<Message> = { fingerprint: json, hash: sha256, same: sameJson };
/** Hash-only identity, as the proxy keeps it: no originals stored. */
const hashed: SequenceIdentity<Message> = { fingerprint: json, hash: sha256 };
/** Colliding keys make prefixes of one length share a slot, so only correctness holds for every identity. */
const identities = fc.constantFrom(colliding, confirmed, hashed);
const roomy = fc.constantFrom(confirmed, hashed);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('prefix identity', () => {
  it('gives a prefix the leading keys of any sequence it starts, and another seed other keys', () => {
    fc.assert(
      fc.property(sequence, sequence, (head, rest) => {
        const whole = [...head, ...rest];
        const all = Array.from({ length: whole.length + 1 }, (_, length) => length);
        const keys = prefixKeysAt(whole, hashed, '', all);
        expect(keys.size).toBe(whole.length + 1);
        expect(new Set(keys.values()).size).toBe(keys.size);
        expect(prefixKeysAt(head, hashed, '', all)).toEqual(
          new Map([...keys].filter(([length]) => length <= head.length)),
        );
        expect(prefixKey(whole, head.length, hashed)).toBe(keys.get(head.length));
        expect(prefixKey(head, head.length + 1, hashed)).toBeUndefined();
        expect(prefixKey(head, head.length, hashed, 'other')).not.toBe(keys.get(head.length));
      }),
    );
  });

  it('replaces exactly the prefix and keeps the later messages as the same values', () => {
    fc.assert(
      fc.property(sequence, sequence, sequence, (head, rest, replacement) => {
        const whole = deepFreeze([...head, ...rest]);
        const spliced = replacePrefix(whole, head.length, deepFreeze(replacement));
        expect(spliced).toEqual([...replacement, ...rest]);
        rest.forEach((value, index) => {
          expect(spliced[replacement.length + index]).toBe(value);
        });
      }),
    );
  });
});

describe('prefix memory', () => {
  it('never finds a prefix that differs from the one stored for the value it returns', () => {
    fc.assert(
      fc.property(
        identities,
        fc.array(sequence, { minLength: 1, maxLength: 6 }),
        sequence,
        (identity, stored, looked) => {
          const memory = new PrefixMemory<Message, number>({ capacity: 8, identity });
          stored.forEach((prefix, index) => {
            memory.store(prefix, index);
          });
          const hit = memory.lookup(looked);
          if (hit === undefined) return;
          // The last store of an equal prefix wins, as in any map.
          const owner = stored.findLastIndex((prefix) =>
            isDeepStrictEqual(prefix, looked.slice(0, hit.length)),
          );
          expect(hit.value).toBe(owner);
          expect(stored[owner]).toHaveLength(hit.length);
        },
      ),
    );
  });

  it('finds every stored prefix of a sequence, the longest first', () => {
    fc.assert(
      fc.property(roomy, sequence, sequence, fc.nat(), fc.nat(), (identity, head, rest, one, two) => {
        const whole = [...head, ...rest];
        const short = Math.min(one, two) % (whole.length + 1);
        const long = Math.max(short, Math.max(one, two) % (whole.length + 1));
        const memory = new PrefixMemory<Message, string>({ capacity: 4, identity });
        memory.store(whole.slice(0, long), 'long');
        memory.store(whole.slice(0, short), 'short');
        expect(memory.lookup(whole)).toEqual({ length: long, value: short === long ? 'short' : 'long' });
        // A sequence the long prefix does not fit still finds the short one.
        if (short < long)
          expect(memory.lookup(whole.slice(0, long - 1))).toEqual({ length: short, value: 'short' });
      }),
    );
  });

  it('keys prefixes by their seed: the same messages under another seed are not found', () => {
    fc.assert(
      fc.property(identities, sequence, (identity, prefix) => {
        const memory = new PrefixMemory<Message, string>({ capacity: 2, identity });
        memory.store(prefix, 'system one', 'one');
        expect(memory.lookup(prefix, 'two')).toBeUndefined();
        expect(memory.lookup(prefix, 'one')).toEqual({ length: prefix.length, value: 'system one' });
      }),
    );
  });

  it('forgets the least recently used prefix at capacity; a lookup counts as a use', () => {
    fc.assert(
      fc.property(roomy, fc.integer({ min: 1, max: 5 }), (identity, capacity) => {
        const prefixes = Array.from({ length: capacity + 1 }, (_, index) => [
          { role: 'user', text: `m${index}` },
        ]);
        const memory = new PrefixMemory<Message, number>({ capacity, identity });
        prefixes.slice(0, capacity).forEach((prefix, index) => {
          memory.store(prefix, index);
        });
        expect(memory.lookup(prefixes[0] as Message[])?.value).toBe(0);
        memory.store(prefixes[capacity] as Message[], capacity);
        expect(memory.size).toBe(capacity);
        expect(memory.lookup(prefixes[capacity] as Message[])?.value).toBe(capacity);
        // The first prefix was used last, so the second one went (the first itself when it was all there was).
        const gone = capacity > 1 ? 1 : 0;
        expect(memory.lookup(prefixes[gone] as Message[])).toBeUndefined();
        if (capacity > 1) expect(memory.lookup(prefixes[0] as Message[])?.value).toBe(0);
      }),
    );
  });

  it('never changes its inputs, and a stored prefix outlives changes to the array it came from', () => {
    fc.assert(
      fc.property(identities, sequence, sequence, (identity, prefix, rest) => {
        const memory = new PrefixMemory<Message, readonly Message[]>({ capacity: 2, identity });
        const frozen = deepFreeze([...prefix]);
        const replacement = deepFreeze([{ role: 'user', text: 'summary' }]);
        memory.store(frozen, replacement);
        const looked = deepFreeze([...prefix, ...rest]);
        const snapshot = structuredClone(looked);
        const hit = memory.lookup(looked);
        expect(looked).toEqual(snapshot);
        expect(hit).toEqual({ length: prefix.length, value: replacement });
        // The memory copied the prefix: a caller reusing its own array cannot change what was stored.
        const mutable = [...prefix];
        const copyMemory = new PrefixMemory<Message, string>({ capacity: 1, identity: colliding });
        copyMemory.store(mutable, 'kept');
        mutable.push({ role: 'user', text: 'later' });
        expect(copyMemory.lookup(prefix)).toEqual({ length: prefix.length, value: 'kept' });
      }),
    );
  });

  it('treats an empty prefix as standing before every sequence under its seed', () => {
    const memory = new PrefixMemory<Message, string>({ capacity: 2, identity: hashed });
    memory.store([], 'system only', 'seed');
    expect(memory.lookup([{ role: 'user', text: 'a' }], 'seed')).toEqual({ length: 0, value: 'system only' });
    expect(memory.lookup([], 'other')).toBeUndefined();
    memory.clear();
    expect(memory.size).toBe(0);
  });
});
