import { CondenseError } from '../errors/condense-error.js';
import { ENCODING_NAMES, type EncodingName, isEncodingName } from './encoding-for-model.js';
import { createExactCounter, type ExactCounterOptions } from './exact-counter.js';
import { bytePairCoreOf, createPreTokenCounter } from './pre-token-counter.js';
import type { TokenCounter } from './token-counter.js';

/** The part of a gpt-tokenizer encoding module counting uses. */
interface GptEncoding {
  countTokens(text: string, options: { readonly disallowedSpecial: Set<string> }): number;
  clearMergeCache(): void;
}

/**
 * Characters counted through gpt-tokenizer's public `countTokens` (used only if its internals are not as
 * expected) between two clears of gpt-tokenizer's merge cache. The cache (one per encoding, 100,000
 * entries) evicts by deleting a `Map`'s first key, which V8 makes cost as much as the deleted entries before it:
 * once it is full, every new multi-token word costs 20–270 µs (measured), so counting random base64 after a
 * large corpus slowed from about 2 to 18 µs per byte and kept slowing as the input grew. Each character adds at
 * most one entry, so clearing at this interval keeps the cache from ever filling.
 */
const MERGE_CACHE_CLEAR_INTERVAL = 65_536;

/**
 * Loads an encoding on first use: each one is megabytes of ranks, so nothing is loaded until a counter needs it
 * (the module system keeps it loaded for later counters).
 */
async function loadEncoding(encoding: EncodingName): Promise<GptEncoding> {
  switch (encoding) {
    case 'o200k_base':
      return (await import('gpt-tokenizer/encoding/o200k_base')).default;
    case 'cl100k_base':
      return (await import('gpt-tokenizer/encoding/cl100k_base')).default;
  }
}

/**
 * An exact counter for an OpenAI encoding, backed by gpt-tokenizer (the fastest JavaScript tokenizer measured
 * for this project). Special-token text such as `<|endoftext|>` in a transcript is counted as the ordinary text
 * it is, never rejected. Counting goes through {@link createPreTokenCounter} (cached per pre-token, same
 * counts) when gpt-tokenizer's internals are as expected. Throws `INVALID_OPTIONS` for an unknown encoding and
 * `TOKENIZER_FAILED` when the encoding cannot be loaded.
 */
export async function createEncodingCounter(
  encoding: EncodingName,
  options: ExactCounterOptions = {},
): Promise<TokenCounter> {
  if (!isEncodingName(encoding)) {
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: `unknown encoding "${String(encoding)}"`,
      hint: `use one of ${ENCODING_NAMES.join(', ')}, or a model name`,
    });
  }
  let api: GptEncoding;
  try {
    api = await loadEncoding(encoding);
  } catch (error) {
    throw new CondenseError({
      code: 'TOKENIZER_FAILED',
      message: `cannot load the ${encoding} encoding: ${(error as Error).message}`,
      hint: 'reinstall condense so that its gpt-tokenizer dependency is present, or count with --tokenizer rough',
      cause: error,
    });
  }
  // An empty disallow list turns gpt-tokenizer's special-token check off: such text is encoded as text.
  const encodeOptions = { disallowedSpecial: new Set<string>() };
  let sinceClear = 0;
  const countTokens = (piece: string): number => {
    sinceClear += piece.length;
    if (sinceClear > MERGE_CACHE_CLEAR_INTERVAL) {
      api.clearMergeCache();
      sinceClear = piece.length;
    }
    return api.countTokens(piece, encodeOptions);
  };
  const core = bytePairCoreOf(api);
  const countPiece = core === undefined ? countTokens : createPreTokenCounter(core, countTokens);
  return createExactCounter({ name: encoding, countPiece }, options);
}
