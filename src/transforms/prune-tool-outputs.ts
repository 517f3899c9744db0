import type { Message } from '../model/message.js';
import { createRoughCounter } from '../tokens/rough-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { dedupeToolResults } from './dedupe-tool-results.js';
import { digestMessage } from './digest-tool-results.js';
import { mapMessages } from './rewrite.js';
import { argumentLimits, shrinkMessage } from './shrink-tool-arguments.js';
import { type ImagePlaceholder, stripImages } from './strip-images.js';
import { indexToolCalls, type ToolCallIndex } from './tool-call-index.js';
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
  return planPruning(messages, options).whole();
}

/**
 * {@link pruneToolOutputs} message by message. Deduplication and the image pass run over the whole transcript
 * at once (they compare and locate across messages); digests and argument shrinking, the costly part, are made
 * for a message only when it is asked for, once. A compaction asks for the messages it keeps and leaves the
 * digests of the ones it folds unmade: the checkpoint is written from the originals.
 */
export interface PrunePlan {
  /** First index of the protected tail (see {@link pruneBoundary}). */
  readonly boundary: number;
  /** The messages deduplicated and image-stripped, before digests and shrinking: same length and order. */
  readonly base: readonly Message[];
  /** The message at `index` as {@link pruneToolOutputs} leaves it (the very same object on every call). */
  messageAt(index: number): Message;
  /** What pruning did to the messages at `indices`, which it makes if not made yet. */
  reportFor(indices: Iterable<number>): PruneReport;
  /** Every message pruned: what {@link pruneToolOutputs} returns. */
  whole(): PruneToolOutputsResult;
}

/** Plans {@link pruneToolOutputs}; see {@link PrunePlan}. */
export function planPruning(messages: readonly Message[], options: PruneToolOutputsOptions = {}): PrunePlan {
  const boundary = pruneBoundary(messages, options);
  const minChars = options.minChars ?? 200;
  const deduped = dedupeToolResults(messages, { minChars, keep: options.dedupeKeep ?? 'newest' });
  const toolResultsOnly = !(options.stripMessageImages ?? false);
  // Images go first so the digest pass sees the same content on every run (idempotence).
  const stripped = stripImages(deduped.messages, {
    before: boundary,
    toolResultsOnly,
    ...(options.imagePlaceholder === undefined ? {} : { placeholder: options.imagePlaceholder }),
  });
  const base = stripped.messages;
  const limits = argumentLimits(options);
  let calls: ToolCallIndex | undefined;
  const made: (Message | undefined)[] = [];
  const digestedAt: number[] = [];
  const shrunkAt: number[] = [];
  const referencesAt = new Map<number, number>();
  for (const reference of deduped.references)
    referencesAt.set(reference.index, (referencesAt.get(reference.index) ?? 0) + 1);
  const plan: PrunePlan = {
    boundary,
    base,
    messageAt(index) {
      const original = base[index] as Message;
      if (index >= boundary) return original;
      const known = made[index];
      if (known !== undefined) return known;
      calls ??= indexToolCalls(base);
      const digested = digestMessage(original, index, calls, minChars);
      const shrunk = shrinkMessage(digested.message, limits);
      made[index] = shrunk.message;
      digestedAt[index] = digested.digested;
      shrunkAt[index] = shrunk.shrunk;
      return shrunk.message;
    },
    reportFor(indices) {
      const report = { deduplicated: 0, digested: 0, argumentsShrunk: 0, imagesStripped: 0 };
      for (const index of indices) {
        if (index < 0 || index >= messages.length) continue;
        plan.messageAt(index);
        report.deduplicated += referencesAt.get(index) ?? 0;
        report.digested += digestedAt[index] ?? 0;
        report.argumentsShrunk += shrunkAt[index] ?? 0;
        if (stripped.stripped > 0) {
          report.imagesStripped +=
            imageCount(deduped.messages[index] as Message, toolResultsOnly) -
            imageCount(base[index] as Message, toolResultsOnly);
        }
      }
      return report;
    },
    whole() {
      return {
        // The base array itself when nothing was digested or shrunk, the input itself when nothing changed at all.
        messages: mapMessages(base, (_, index) => plan.messageAt(index)),
        report: plan.reportFor(base.keys()),
        boundary,
      };
    },
  };
  return plan;
}

/** Images the image pass can replace in a message: those inside tool results, and its own unless `toolResultsOnly`. */
function imageCount(message: Message, toolResultsOnly: boolean): number {
  let count = 0;
  for (const part of message.parts) {
    if (part.type === 'image' && !toolResultsOnly) count++;
    if (part.type !== 'tool-result') continue;
    for (const inner of part.content) if (inner.type === 'image') count++;
  }
  return count;
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
