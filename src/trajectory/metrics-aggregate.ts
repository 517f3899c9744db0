import type { JsonObject } from '../model/json.js';
import { roundTo, type TrajectoryMetrics } from './trajectory-metrics.js';

/**
 * What happened to one entry of a dataset. `compressed`: a summary replaced some turns. `under-target`: already
 * within the target. `not-compressible`: over the target but nothing could be cut. `failed` / `timed-out`: kept
 * in its original form. `passthrough`: not a trajectory (no turns the codec could read), kept as it was.
 */
export type EntryOutcome =
  | 'compressed'
  | 'under-target'
  | 'not-compressible'
  | 'failed'
  | 'timed-out'
  | 'passthrough';

/** Running totals over many trajectories: plain numbers, so they can be stored and merged (resumed runs). */
export interface AggregateCounts {
  total: number;
  compressed: number;
  skippedUnderTarget: number;
  stillOverLimit: number;
  notCompressible: number;
  failed: number;
  timedOut: number;
  passthrough: number;
  escalated: number;
  tokensBefore: number;
  tokensAfter: number;
  turnsBefore: number;
  turnsAfter: number;
  /** Sums over compressed trajectories, for the averages. */
  ratioSum: number;
  savedByCompressed: number;
  turnsRemovedByCompressed: number;
  apiCalls: number;
  apiErrors: number;
}

/** Empty totals. */
export function emptyAggregate(): AggregateCounts {
  return {
    total: 0,
    compressed: 0,
    skippedUnderTarget: 0,
    stillOverLimit: 0,
    notCompressible: 0,
    failed: 0,
    timedOut: 0,
    passthrough: 0,
    escalated: 0,
    tokensBefore: 0,
    tokensAfter: 0,
    turnsBefore: 0,
    turnsAfter: 0,
    ratioSum: 0,
    savedByCompressed: 0,
    turnsRemovedByCompressed: 0,
    apiCalls: 0,
    apiErrors: 0,
  };
}

/** Adds one entry to the totals (in place). Failed entries count as failed and add no token figures. */
export function addToAggregate(
  counts: AggregateCounts,
  outcome: EntryOutcome,
  metrics: TrajectoryMetrics | undefined,
): void {
  counts.total++;
  switch (outcome) {
    case 'failed':
      counts.failed++;
      break;
    case 'timed-out':
      counts.failed++;
      counts.timedOut++;
      break;
    case 'passthrough':
      counts.passthrough++;
      break;
    case 'under-target':
      counts.skippedUnderTarget++;
      break;
    case 'not-compressible':
      counts.notCompressible++;
      break;
    case 'compressed':
      counts.compressed++;
      break;
  }
  if (metrics === undefined) return;
  counts.tokensBefore += metrics.originalTokens;
  counts.tokensAfter += metrics.compressedTokens;
  counts.turnsBefore += metrics.originalTurns;
  counts.turnsAfter += metrics.compressedTurns;
  counts.apiCalls += metrics.summarizationApiCalls;
  counts.apiErrors += metrics.summarizationErrors;
  if (metrics.stillOverLimit) counts.stillOverLimit++;
  if (metrics.strategy === 'digest-then-summarize') counts.escalated++;
  if (metrics.wasCompressed) {
    counts.ratioSum += metrics.compressionRatio;
    counts.savedByCompressed += metrics.tokensSaved;
    counts.turnsRemovedByCompressed += metrics.turnsRemoved;
  }
}

/** Totals of two runs (the stored part of a resumed run and the new part). */
export function mergeAggregates(left: AggregateCounts, right: AggregateCounts): AggregateCounts {
  const out = emptyAggregate();
  for (const key of Object.keys(out) as (keyof AggregateCounts)[]) out[key] = left[key] + right[key];
  return out;
}

/** Timing of a run, for the `processing` block. */
export interface ProcessingTimes {
  /** ISO timestamps. */
  readonly startTime: string;
  readonly endTime: string;
  readonly durationSeconds: number;
}

/**
 * The aggregate metrics file: Hermes' `summary`, `tokens`, `turns`, `averages`, `summarization` and
 * `processing` blocks with its field names and rounding (ratios to 4 places, denominators at least 1), plus
 * condense's counts of timeouts, pass-through entries and escalations in `summary`.
 */
export function aggregateMetricsJson(counts: AggregateCounts, times: ProcessingTimes): JsonObject {
  const compressed = counts.compressed;
  return {
    summary: {
      total_trajectories: counts.total,
      trajectories_compressed: compressed,
      trajectories_skipped_under_target: counts.skippedUnderTarget,
      trajectories_still_over_limit: counts.stillOverLimit,
      trajectories_failed: counts.failed,
      compression_rate: roundTo(compressed / Math.max(counts.total, 1), 4),
      trajectories_timed_out: counts.timedOut,
      trajectories_not_compressible: counts.notCompressible,
      trajectories_passed_through: counts.passthrough,
      trajectories_escalated: counts.escalated,
    },
    tokens: {
      total_before: counts.tokensBefore,
      total_after: counts.tokensAfter,
      total_saved: counts.tokensBefore - counts.tokensAfter,
      overall_compression_ratio: roundTo(counts.tokensAfter / Math.max(counts.tokensBefore, 1), 4),
    },
    turns: {
      total_before: counts.turnsBefore,
      total_after: counts.turnsAfter,
      total_removed: counts.turnsBefore - counts.turnsAfter,
    },
    averages: {
      avg_compression_ratio: compressed === 0 ? 1 : roundTo(counts.ratioSum / compressed, 4),
      avg_tokens_saved_per_compressed: roundTo(counts.savedByCompressed / Math.max(compressed, 1), 1),
      avg_turns_removed_per_compressed: roundTo(counts.turnsRemovedByCompressed / Math.max(compressed, 1), 2),
    },
    summarization: {
      total_api_calls: counts.apiCalls,
      total_errors: counts.apiErrors,
      success_rate: roundTo(1 - counts.apiErrors / Math.max(counts.apiCalls, 1), 4),
    },
    processing: {
      start_time: times.startTime,
      end_time: times.endTime,
      duration_seconds: roundTo(times.durationSeconds, 2),
    },
  };
}
