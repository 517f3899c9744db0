import { statSync } from 'node:fs';
import fc from 'fast-check';
import cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { createEncodingCounter } from '../../src/tokens/encoding-counter.js';
import type { EncodingName } from '../../src/tokens/encoding-for-model.js';
import { corpusFiles, readCorpusFile, shortName } from '../support/corpus.js';
import { codeText, jsonText, PATHOLOGICAL, proseText, toolOutputText } from './helpers.js';

const APIS = { o200k_base: o200k, cl100k_base: cl100k } as const;
const direct = (encoding: EncodingName, text: string) =>
  APIS[encoding].countTokens(text, { disallowedSpecial: new Set() });

describe.each(['o200k_base', 'cl100k_base'] as const)('createEncodingCounter(%s)', (encoding) => {
  it('is exact and named after its encoding', async () => {
    const counter = await createEncodingCounter(encoding);
    expect(counter.name).toBe(encoding);
    expect(counter.exact).toBe(true);
    expect(counter.countText('hello world')).toBe(2);
    expect(counter.countText('')).toBe(0);
  });

  it('counts special-token text as text instead of throwing', async () => {
    const counter = await createEncodingCounter(encoding);
    for (const text of ['<|endoftext|>', 'before <|im_start|>user\nhi<|im_end|> after', '<|fim_prefix|>']) {
      expect(counter.countText(text)).toBe(direct(encoding, text));
      expect(counter.countText(text)).toBeGreaterThan(1);
    }
  });

  it('gives the same count as the tokenizer on the whole text for realistic content', async () => {
    const counter = await createEncodingCounter(encoding);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(proseText, jsonText, codeText, toolOutputText), { minLength: 1, maxLength: 12 }),
        (texts) => {
          const text = texts.join('\n\n');
          expect(counter.countText(text)).toBe(direct(encoding, text));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('gives the same count as the tokenizer on the whole text of corpus files', async () => {
    const counter = await createEncodingCounter(encoding);
    const files = (['claude-code', 'openai', 'sharegpt', 'anthropic'] as const)
      .flatMap((dir) => corpusFiles(dir))
      .filter((file) => statSync(file).size < 120_000)
      .slice(0, 40);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readCorpusFile(file);
      expect([shortName(file), counter.countText(text)]).toEqual([shortName(file), direct(encoding, text)]);
    }
  });

  it('counts pathological runs in bounded pieces', async () => {
    const counter = await createEncodingCounter(encoding);
    const repeated = PATHOLOGICAL.repeated(256 * 1024);
    // 256 a's are 32 tokens of 8 in both encodings, and every piece is 256 a's long.
    expect(counter.countText(repeated)).toBe(256 * 1024 * (direct(encoding, 'a'.repeat(256)) / 256));
    for (const text of [PATHOLOGICAL.hex(256 * 1024), PATHOLOGICAL.base64(256 * 1024)]) {
      const tokens = counter.countText(text);
      expect(tokens).toBeGreaterThan(text.length / 4);
      expect(tokens).toBeLessThan(text.length);
    }
  });
});

it("leaves gpt-tokenizer's merge cache empty (a full one makes every eviction slow)", async () => {
  const core = (o200k as unknown as { bytePairEncodingCoreProcessor: { mergeCache: Map<string, unknown> } })
    .bytePairEncodingCoreProcessor;
  o200k.clearMergeCache();
  const counter = await createEncodingCounter('o200k_base');
  counter.countText(PATHOLOGICAL.base64(100_000));
  counter.countText('naïve café 😀 '.repeat(2_000));
  expect(core.mergeCache.size).toBe(0);
});

it('rejects an unknown encoding with INVALID_OPTIONS', async () => {
  try {
    await createEncodingCounter('p50k_base' as EncodingName);
    expect.unreachable();
  } catch (error) {
    expect(isCondenseError(error) && error.code).toBe('INVALID_OPTIONS');
    expect(isCondenseError(error) && error.hint).toContain('o200k_base');
  }
});
