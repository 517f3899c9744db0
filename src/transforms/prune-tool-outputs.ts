import type { Message } from '../model/message.js';
import { createRoughCounter } from '../tokens/rough-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { dedupeToolResults } from './dedupe-tool-results.js';
import { digestToolResults } from './digest-tool-results.js';
import { shrinkToolArguments } from './shrink-tool-arguments.js';
import { type ImagePlaceholder, stripImages } from './strip-images.js';
import { alignBack } from './tool-groups.js';

/** Options of {@link pruneToolOutputs}. Budgets are in tokens of `counter`. */
export interface PruneToolOutputsOptions {
  /** @default createRoughCounter() */
  readonly counter?: TokenCounter;
  /**
   * Tokens at the end that are never digested or shrunk. Without it, the last `protectLastN` messages are.
   */
  readonly protectTailTokens?: number;
  /** The protected tail always has at least this many messages. @default 20 */
  readonly protectLastN?: number;
  /** Outputs at most this long are never digested, and shorter ones never deduplicated. @default 200 */
  readonly minChars?: number;
  /** Which copy of a repeated output stays whole (see {@link dedupeToolResults}). @default 'newest' */
  readonly dedupeKeep?: 'newest' | 'earliest';
  /** @default 500 */
  readonly maxArgumentChars?: number;
  /** @default 200 */
  readonly maxLeafChars?: number;
  /** What replaces old images. @default defaultImagePlaceholder */
  readonly imagePlaceholder?: ImagePlaceholder;
  /**
   * Also strip old images that user and assistant messages carry themselves, not only those inside tool
   * results (Hermes strips user attachments only once a newer one arrives, with `stripHistoricalImages`).
   * @default false
   */
  readonly stripMessageImages?: boolean;
}

/** What the deterministic phase did (the engines' `PruningReport`). */
export interface PruneReport {
  /** Tool outputs replaced by a reference to an identical copy. */
  readonly deduplicated: number;
  /** Old tool outputs replaced by a one-line digest. */
  readonly digested: number;
  /** Tool calls whose long argument values were shortened. */
  readonly argumentsShrunk: number;
  /** Images replaced by a placeholder. */
  readonly imagesStripped: number;
}

/** Result of {@link pruneToolOutputs}. */
export interface PruneToolOutputsResult {
  /** Same length and order as the input; the input array itself when nothing changed. */
  readonly messages: readonly Message[];
  readonly report: PruneReport;
  /** First index of the protected tail: messages from here on were at most deduplicated. */
  readonly boundary: number;
}

/**
 * The deterministic phase of a compaction, no model involved (Hermes b.3, in its order): identical outputs
 * are deduplicated across the whole transcript, old images in tool results become placeholders, old tool outputs
 * become one-line digests, and long argument values of old calls are shortened. "Old" means before the protected
 * tail ({@link pruneBoundary}), which never starts among the results of a tool call.
 */
export function pruneToolOutputs(
  messages: readonly Message[],
  options: PruneToolOutputsOptions = {},
): PruneToolOutputsResult {
  const boundary = pruneBoundary(messages, options);
  const minChars = options.minChars ?? 200;
  const deduped = dedupeToolResults(messages, { minChars, keep: options.dedupeKeep ?? 'newest' });
  // Images go first so the digest pass sees the same content on every run (idempotence).
  const stripped = stripImages(deduped.messages, {
    before: boundary,
    toolResultsOnly: !(options.stripMessageImages ?? false),
    ...(options.imagePlaceholder === undefined ? {} : { placeholder: options.imagePlaceholder }),
  });
  const digested = digestToolResults(stripped.messages, { before: boundary, minChars });
  const shrunk = shrinkToolArguments(digested.messages, {
    before: boundary,
    ...(options.maxArgumentChars === undefined ? {} : { maxArgumentChars: options.maxArgumentChars }),
    ...(options.maxLeafChars === undefined ? {} : { maxLeafChars: options.maxLeafChars }),
  });
  return {
    messages: shrunk.messages,
    report: {
      deduplicated: deduped.deduplicated,
      digested: digested.digested,
      argumentsShrunk: shrunk.shrunk,
      imagesStripped: stripped.stripped,
    },
    boundary,
  };
}

/**
 * Where pruning stops (Hermes b.3): walking back from the end, messages are protected until adding one would
 * exceed `protectTailTokens` with at least `protectLastN` messages already protected; that message is still
 * protected. Without a token budget the last `protectLastN` messages are. The boundary then moves back to the
 * call of any tool results it would separate from it.
 */
export function pruneBoundary(
  messages: readonly Message[],
  options: Pick<PruneToolOutputsOptions, 'counter' | 'protectTailTokens' | 'protectLastN'> = {},
): number {
  const n = messages.length;
  const minProtect = Math.min(options.protectLastN ?? 20, n);
  const budget = options.protectTailTokens;
  if (budget === undefined || budget <= 0) return alignBack(messages, n - minProtect);
  const counter = options.counter ?? createRoughCounter();
  let total = 0;
  let boundary = 0;
  for (let index = n - 1; index >= 0; index--) {
    total += counter.countMessage(messages[index] as Message);
    if (total > budget && n - index >= minProtect) {
      boundary = index;
      break;
    }
  }
  return alignBack(messages, boundary);
}
