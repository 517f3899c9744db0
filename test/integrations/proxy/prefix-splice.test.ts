import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../support/property-seed.js';
import { PrefixMemory } from '../../../src/integrations/conversation-memory/prefix-memory.js';
import {
  spliceReplacement,
  systemSeed,
  type WirePrompt,
  type WireReplacement,
  wireIdentity,
  withoutCacheControl,
} from '../../../src/integrations/proxy/prefix-splice.js';

const message = fc.record({
  role: fc.constantFrom('user', 'assistant', 'tool'),
  content: fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.array(fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 20 }) }), { maxLength: 3 }),
  ),
});
const messages = fc.array(message, { maxLength: 12 });
const system = fc.option(fc.string({ maxLength: 20 }), { nil: undefined });

type Stored = PrefixMemory<unknown, WireReplacement>;

/** A conversation's memory, as the proxy keeps it, holding one compaction of `prompt`. */
function store(prompt: WirePrompt, replacement: readonly unknown[], replacementSystem?: unknown): Stored {
  const memory: Stored = new PrefixMemory({ capacity: 1, identity: wireIdentity });
  const value =
    replacementSystem === undefined
      ? { messages: replacement }
      : { messages: replacement, system: replacementSystem };
  memory.store(prompt.messages, value, systemSeed(prompt));
  return memory;
}

/** The prompt with the stored prefix spliced in, as the proxy's compaction step does it. */
function splicePrefix(prompt: WirePrompt, memory: Stored): WirePrompt | undefined {
  const hit = memory.lookup(prompt.messages, systemSeed(prompt));
  return hit === undefined ? undefined : spliceReplacement(prompt, hit.length, hit.value);
}

function withSystem(list: readonly unknown[], value: string | undefined): WirePrompt {
  return value === undefined ? { messages: list } : { messages: list, system: value };
}

describe('prefix splicing', () => {
  it('replaces exactly the stored prefix and keeps every later message as it is', () => {
    fc.assert(
      fc.property(
        messages,
        messages,
        messages,
        system,
        system,
        (prefix, replacement, suffix, sys, newSys) => {
          const stored = store(withSystem(prefix, sys), replacement, newSys);
          const spliced = splicePrefix(withSystem([...prefix, ...suffix], sys), stored);
          expect(spliced?.messages).toEqual([...replacement, ...suffix]);
          expect(spliced?.system).toEqual(newSys);
          // The messages after the prefix are the very same values (no copy, no re-serialization).
          for (const [index, value] of suffix.entries()) {
            expect(spliced?.messages[replacement.length + index]).toBe(value);
          }
        },
      ),
    );
  });

  it('refuses a history that does not start with the stored prefix', () => {
    fc.assert(
      fc.property(
        messages.filter((list) => list.length > 0),
        messages,
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 5 }),
        (prefix, suffix, at, extra) => {
          const stored = store({ messages: prefix }, [{ role: 'user', content: 'summary' }]);
          const index = at % prefix.length;
          const changed = prefix.map((value, position) =>
            position === index ? { ...value, content: `${JSON.stringify(value.content)}${extra}` } : value,
          );
          expect(splicePrefix({ messages: [...changed, ...suffix] }, stored)).toBeUndefined();
          expect(splicePrefix({ messages: prefix.slice(0, -1) }, stored)).toBeUndefined();
        },
      ),
    );
  });

  it('refuses a different system prompt', () => {
    fc.assert(
      fc.property(messages, fc.string(), fc.string(), (prefix, one, two) => {
        fc.pre(one !== two);
        const stored = store({ messages: prefix, system: one }, []);
        expect(splicePrefix({ messages: prefix, system: two }, stored)).toBeUndefined();
      }),
    );
  });

  it('ignores moved cache_control breakpoints, and stores replacements without them', () => {
    fc.assert(
      fc.property(
        messages.filter((list) => list.length > 0),
        fc.nat(),
        (prefix, at) => {
          const stored = store({ messages: prefix }, []);
          const index = at % prefix.length;
          const marked = prefix.map((value, position) =>
            position === index ? { ...value, cache_control: { type: 'ephemeral' } } : value,
          );
          expect(splicePrefix({ messages: marked }, stored)).toEqual({ messages: [] });
          expect(JSON.stringify(withoutCacheControl(marked))).not.toContain('cache_control');
          expect(withoutCacheControl(marked)).toEqual(prefix);
        },
      ),
    );
  });
});
