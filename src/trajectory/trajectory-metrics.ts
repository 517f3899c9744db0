import type { JsonObject } from '../model/json.js';
import type { SummarySource } from '../summarizer/summarizer.js';
import type { TurnSpan } from './plan-compression.js';

/** Which path produced a trajectory: untouched, Hermes' one pass, or the escalation after it. */
export type AppliedStrategy = 'none' | 'single-pass' | 'digest-then-summarize';

/** What compression did to one trajectory (Hermes' per-trajectory fields, plus condense's own). */
export interface TrajectoryMetrics {
  readonly originalTokens: number;
  readonly compressedTokens: number;
  readonly tokensSaved: number;
  /** compressed ÷ original (1 when untouched). */
  readonly compressionRatio: number;
  readonly originalTurns: number;
  readonly compressedTurns: number;
  readonly turnsRemoved: number;
  /** Summarized turns, `end` exclusive; absent when nothing was summarized. */
  readonly region?: TurnSpan;
  readonly wasCompressed: boolean;
  /** The result is still above the target. */
  readonly stillOverLimit: boolean;
  /** Left alone because it was already within the target. */
  readonly skippedUnderTarget: boolean;
  /** Model requests sent for the summary, failed ones included. */
  readonly summarizationApiCalls: number;
  /** Model requests that failed. */
  readonly summarizationErrors: number;
  readonly strategy: AppliedStrategy;
  readonly summarySource?: SummarySource;
  /** Tool outputs replaced by a digest (escalation only). */
  readonly digestedOutputs: number;
  /** The summary was cut to fit the room left (escalation only). */
  readonly summaryClipped: boolean;
  /** Indices (in the input) of turns kept verbatim by the policy's anchors. */
  readonly anchors: readonly number[];
  /** Counter that produced the token figures (`o200k_base`, `hf:…`, `rough`). */
  readonly tokenizer: string;
  /** Why the result is still over the target, why nothing was cut, or what the escalation gave up. */
  readonly note?: string;
}

/** Rounds to `digits` decimals, as Hermes' reports do. */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * The `compression_metrics` object written into an output entry: Hermes' field names (so its consumers read
 * it), ratio rounded to 4 places, region `-1/-1/0` when nothing was summarized, followed by condense's fields.
 */
export function toCompressionMetricsJson(metrics: TrajectoryMetrics): JsonObject {
  const region = metrics.region;
  return {
    original_tokens: metrics.originalTokens,
    compressed_tokens: metrics.compressedTokens,
    tokens_saved: metrics.tokensSaved,
    compression_ratio: roundTo(metrics.compressionRatio, 4),
    original_turns: metrics.originalTurns,
    compressed_turns: metrics.compressedTurns,
    turns_removed: metrics.turnsRemoved,
    compression_region: {
      start_idx: region?.start ?? -1,
      end_idx: region?.end ?? -1,
      turns_count: region === undefined ? 0 : region.end - region.start,
    },
    was_compressed: metrics.wasCompressed,
    still_over_limit: metrics.stillOverLimit,
    skipped_under_target: metrics.skippedUnderTarget,
    summarization_api_calls: metrics.summarizationApiCalls,
    summarization_errors: metrics.summarizationErrors,
    strategy: metrics.strategy,
    ...(metrics.summarySource === undefined ? {} : { summary_source: metrics.summarySource }),
    digested_outputs: metrics.digestedOutputs,
    summary_clipped: metrics.summaryClipped,
    anchors: [...metrics.anchors],
    tokenizer: metrics.tokenizer,
    ...(metrics.note === undefined ? {} : { note: metrics.note }),
  };
}
