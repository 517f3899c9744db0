import fc from 'fast-check';
import cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { createEncodingCounter } from '../../src/tokens/encoding-counter.js';
import type { EncodingName } from '../../src/tokens/encoding-for-model.js';
import {
  type BytePairCore,
  bytePairCoreOf,
  createPreTokenCounter,
} from '../../src/tokens/pre-token-counter.js';
import { DEFAULT_SPLIT_LIMITS, sumOverPieces } from '../../src/tokens/split-text.js';
import { codeText, jsonText, PATHOLOGICAL, proseText, toolOutputText } from './helpers.js';

const APIS = { o200k_base: o200k, cl100k_base: cl100k } as const;
const bare = (encoding: EncodingName, text: string) =>
  APIS[encoding].countTokens(text, { disallowedSpecial: new Set() });
/** The count before the pre-token path: gpt-tokenizer's `countTokens` on each piece the splitter cuts. */
const piecewise = (encoding: EncodingName, text: string) =>
  sumOverPieces(text, DEFAULT_SPLIT_LIMITS, (piece) => bare(encoding, piece));

const char = (from: number, to: number) =>
  fc.integer({ min: from, max: to }).map((code) => String.fromCharCode(code));
/** Characters where pre-tokenizers and byte-pair merges differ: ASCII, accents, CJK, marks, emoji, surrogates. */
const unit = fc.oneof(
  { weight: 6, arbitrary: char(0, 0x7f) },
  char(0x80, 0x2fff),
  char(0x3000, 0x9fff),
  char(0xd800, 0xdfff),
  fc.constantFrom('😀', '👍🏽', 'é', 'e\u0301', 'ß', 'İ', "'s", "'LL", '<|endoftext|>', '<|im_start|>'),
);
const unicodeText = fc.string({ unit, maxLength: 200 });
const whitespaceText = fc.string({
  unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u3000', 'x', '.', '1'),
  maxLength: 200,
});
const codeLike = fc.oneof(proseText, jsonText, codeText, toolOutputText);
/** Texts with runs far beyond the splitter's limits: one long word, a space run, a digit dump, a newline run. */
const longRuns = fc
  .tuple(
    fc.string({ unit, maxLength: 40 }),
    fc.constantFrom('a', ' ', '7', '\n', '=', 'é', 'Ab', '😀', ' \n'),
    fc.integer({ min: 200, max: 3_000 }),
    fc.string({ unit, maxLength: 40 }),
  )
  .map(([before, run, times, after]) => `${before}${run.repeat(times)}${after}`);

describe.each(['o200k_base', 'cl100k_base'] as const)('the %s pre-token path', (encoding) => {
  it('counts exactly as bare gpt-tokenizer on any short text: unicode, whitespace, code', async () => {
    const counter = await createEncodingCounter(encoding);
    fc.assert(
      fc.property(fc.oneof(unicodeText, whitespaceText, codeLike), (text) => {
        expect(counter.countText(text)).toBe(bare(encoding, text));
      }),
      { numRuns: 600 },
    );
  });

  it('leaves every count of long texts and pathological runs as it was before the pre-token path', async () => {
    const counter = await createEncodingCounter(encoding);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(longRuns, codeLike, unicodeText), { minLength: 1, maxLength: 6 }),
        (parts) => {
          const text = parts.join('');
          expect(counter.countText(text)).toBe(piecewise(encoding, text));
        },
      ),
      { numRuns: 120 },
    );
    for (const text of [PATHOLOGICAL.repeated(70_000), PATHOLOGICAL.base64(20_000), ' '.repeat(70_000)]) {
      expect(counter.countText(text)).toBe(piecewise(encoding, text));
    }
  });

  it('stays exact when its cache of pre-token counts starts over every few entries', () => {
    const core = bytePairCoreOf(APIS[encoding]) as BytePairCore;
    const count = createPreTokenCounter(core, () => Number.NaN, { cacheSize: 3 });
    fc.assert(
      fc.property(fc.array(fc.oneof(unicodeText, codeLike), { maxLength: 5 }), (texts) => {
        for (const text of [...texts, ...texts]) expect(count(text)).toBe(bare(encoding, text));
      }),
      { numRuns: 100 },
    );
  });
});

it("finds gpt-tokenizer's byte-pair core, and nothing in objects of another shape", () => {
  expect(bytePairCoreOf(o200k)).toBeDefined();
  expect(bytePairCoreOf(cl100k)).toBeDefined();
  expect(bytePairCoreOf({})).toBeUndefined();
  expect(bytePairCoreOf(null)).toBeUndefined();
  expect(bytePairCoreOf({ bytePairEncodingCoreProcessor: { tokenSplitRegex: /a/g } })).toBeUndefined();
});

it('hands a piece its pre-tokenizer cannot cover end to end to the fallback', () => {
  const core: BytePairCore = {
    tokenSplitRegex: /a+/gu,
    bytePairStringRankEncoder: new Map([['a', 0]]),
    textEncoder: new TextEncoder(),
    bytePairMerge: (bytes) => [...bytes],
  };
  const fallbackPieces: string[] = [];
  const count = createPreTokenCounter(core, (piece) => {
    fallbackPieces.push(piece);
    return -1;
  });
  expect(count('aaa')).toBe(3);
  expect(count('aab')).toBe(-1);
  expect(fallbackPieces).toEqual(['aab']);
});
