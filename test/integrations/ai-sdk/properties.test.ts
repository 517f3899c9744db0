import { isDeepStrictEqual } from 'node:util';
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../support/property-seed.js';
import { condenseMiddleware, condensePrepareStep } from '../../../src/index.js';
import { PrefixCache } from '../../../src/integrations/ai-sdk/prefix-cache.js';
import { toModelPrompt } from '../../../src/integrations/ai-sdk/prompt-messages.js';
import { sameValue } from '../../../src/integrations/ai-sdk/same-value.js';
import { aiSdkTokens, aiSdkViolations, toolHistory } from './support.js';

const lastUserText = (messages: readonly unknown[]) =>
  JSON.stringify((messages as ModelMessage[]).filter((message) => message.role === 'user').at(-1)?.content);

describe('prefix cache', () => {
  it('sameValue agrees with deep equality on JSON values and holds for copies', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (left, right) => {
        expect(sameValue(left, structuredClone(left))).toBe(true);
        expect(sameValue(left, right)).toBe(isDeepStrictEqual(left, right));
      }),
    );
  });

  it('splices the stored replacement in front of whatever followed the stored prefix', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 12 }),
        fc.array(fc.jsonValue(), { maxLength: 6 }),
        fc.array(fc.jsonValue(), { maxLength: 6 }),
        (prefix, suffix, replacement) => {
          const cache = new PrefixCache<unknown>(4);
          cache.store(prefix, replacement);
          const input = structuredClone([...prefix, ...suffix]);
          const spliced = cache.splice(input);
          expect(spliced.reused).toBeGreaterThanOrEqual(prefix.length);
          if (spliced.reused === prefix.length) expect(spliced.messages).toEqual([...replacement, ...suffix]);
        },
      ),
    );
  });

  it('never splices over a prefix that differs', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 10 }), fc.nat(), (prefix, at) => {
        const cache = new PrefixCache<unknown>(4);
        cache.store(prefix, ['replacement']);
        const changed = [...prefix];
        changed[at % prefix.length] = { changed: at };
        expect(cache.splice(changed).reused).toBe(0);
      }),
    );
  });

  it('forgets the least recently used entries beyond its size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 30 }), (size, stored) => {
        const cache = new PrefixCache<string>(size);
        for (let index = 0; index < stored; index++) cache.store([`m${index}`], ['r']);
        expect(cache.size).toBe(Math.min(size, stored));
      }),
    );
  });
});

describe('AI SDK integration on arbitrary coding sessions', () => {
  it('prepareStep returns valid messages that keep the latest request, without touching its input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 3_000 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        async (steps, outputChars, request) => {
          const messages = toolHistory(steps, outputChars, `please ${request}`);
          const snapshot = structuredClone(messages);
          const prepare = condensePrepareStep({ engine: 'rules', engineOptions: { contextLength: 2_000 } });
          const result = await prepare({
            steps: [],
            stepNumber: 0,
            messages,
            experimental_context: undefined,
          } as unknown as Parameters<typeof prepare>[0]);
          expect(messages).toEqual(snapshot);
          // Large histories cross the 1,200-token trigger, so the property is not met by doing nothing.
          if (steps >= 8 && outputChars >= 1_000) expect(result?.messages).toBeDefined();
          const sent = result?.messages ?? messages;
          expect(aiSdkViolations(sent)).toEqual([]);
          expect(lastUserText(sent)).toBe(lastUserText(messages));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('middleware output is deterministic, valid and keeps the latest request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 3_000 }),
        async (steps, outputChars) => {
          const prompt = toModelPrompt(toolHistory(steps, outputChars));
          const transform = (middleware: ReturnType<typeof condenseMiddleware>) =>
            middleware.transformParams?.({
              type: 'generate',
              params: { prompt: structuredClone(prompt) },
              model: {} as never,
            });
          const options = { engine: 'rules', engineOptions: { contextLength: 2_000 } } as const;
          const shared = condenseMiddleware(options);
          const first = await transform(shared);
          const again = await transform(shared);
          const fresh = await transform(condenseMiddleware(options));
          expect(JSON.stringify(again)).toBe(JSON.stringify(first));
          expect(JSON.stringify(fresh)).toBe(JSON.stringify(first));
          const sent = (first?.prompt ?? []) as unknown as ModelMessage[];
          if (steps >= 30)
            expect(aiSdkTokens(sent)).toBeLessThan(aiSdkTokens(prompt as unknown as ModelMessage[]));
          expect(aiSdkViolations(sent)).toEqual([]);
          expect(lastUserText(sent)).toBe(lastUserText(prompt));
        },
      ),
      { numRuns: 40 },
    );
  });
});
