import { CondenseError } from '../errors/condense-error.js';
import { buildTokenCounter } from './build-token-counter.js';
import type { CountingOptions } from './counting-options.js';
import { DEFAULT_SPLIT_LIMITS, type SplitLimits, sumOverPieces } from './split-text.js';
import type { TokenCounter } from './token-counter.js';

/** A tokenizer reduced to what counting needs. */
export interface PieceEncoder {
  /** Counter name, e.g. `o200k_base` or `hf:<model>`. */
  readonly name: string;
  /**
   * Tokens of one piece of text, special-token text (`<|endoftext|>`) counted as ordinary text or as the one
   * token it names, never rejected. Pieces respect the counter's {@link SplitLimits}.
   */
  countPiece(piece: string): number;
}

/** Options of {@link createExactCounter}. */
export interface ExactCounterOptions extends CountingOptions {
  /** How text is cut before it reaches the tokenizer. @default DEFAULT_SPLIT_LIMITS */
  readonly splitLimits?: SplitLimits;
}

/**
 * An exact counter around any tokenizer. Text is cut into pieces that keep byte-pair encoding linear (see
 * {@link SplitLimits}) before it reaches `encoder`; on the whole corpus the cuts changed no count for the OpenAI
 * encodings. A tokenizer that throws becomes a `TOKENIZER_FAILED` error.
 */
export function createExactCounter(encoder: PieceEncoder, options: ExactCounterOptions = {}): TokenCounter {
  const limits = resolveLimits(options.splitLimits);
  const countPiece = (piece: string): number => {
    try {
      return encoder.countPiece(piece);
    } catch (error) {
      throw new CondenseError({
        code: 'TOKENIZER_FAILED',
        message: `tokenizer ${encoder.name} failed on a ${piece.length}-character piece: ${(error as Error).message}`,
        hint: 'count with the rough estimator (--tokenizer rough) and report the input',
        cause: error,
      });
    }
  };
  return buildTokenCounter(
    { name: encoder.name, exact: true, countText: (text) => sumOverPieces(text, limits, countPiece) },
    options,
  );
}

function resolveLimits(limits: SplitLimits | undefined): SplitLimits {
  if (limits === undefined) return DEFAULT_SPLIT_LIMITS;
  for (const key of ['maxRun', 'maxPiece'] as const) {
    const value = limits[key];
    if (!Number.isInteger(value) || value < 1) {
      throw new CondenseError({
        code: 'INVALID_OPTIONS',
        message: `split limit ${key} must be a positive integer, got ${String(value)}`,
        hint: `leave splitLimits out to use the defaults (${DEFAULT_SPLIT_LIMITS.maxRun} and ${DEFAULT_SPLIT_LIMITS.maxPiece})`,
      });
    }
  }
  return limits;
}
