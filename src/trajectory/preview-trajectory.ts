import type { Transcript } from '../model/transcript.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { TrajectoryOutcome } from './compress-trajectory.js';
import { planCompression } from './plan-compression.js';
import type { TrajectoryMetrics } from './trajectory-metrics.js';
import { findAnchors } from './trajectory-policy.js';
import { resolveTrajectorySettings, type TrajectorySettings } from './trajectory-settings.js';

/** What {@link previewTrajectory} predicts. */
export interface TrajectoryPreview {
  readonly outcome: TrajectoryOutcome;
  /** Token figures assume the summary comes out at exactly `summaryTargetTokens`; no summarizer is called. */
  readonly metrics: TrajectoryMetrics;
}

/**
 * What {@link compressTrajectory} would do, decided from token counts alone: the outcome, the region it would
 * summarize and the predicted size (for `--dry-run`). Synchronous and free of model calls.
 */
export function previewTrajectory(
  transcript: Transcript,
  options: TrajectorySettings & { readonly counter: TokenCounter },
): TrajectoryPreview {
  const { counter, ...data } = options;
  const settings = resolveTrajectorySettings(data);
  const messages = transcript.messages;
  const tokens = messages.map((message) => counter.countMessage(message));
  const anchors = findAnchors(messages, settings.policy.anchors);
  const plan = planCompression(messages, tokens, settings, anchors);
  const outcome: TrajectoryOutcome =
    plan.total <= settings.targetMaxTokens
      ? 'under-target'
      : plan.region === undefined
        ? 'not-compressible'
        : 'compressed';
  const region = outcome === 'compressed' ? plan.region : undefined;
  const after = region === undefined ? plan.total : plan.keptTokens + settings.summaryTargetTokens;
  const turnsAfter =
    region === undefined ? messages.length : messages.length - (region.end - region.start) + 1;
  return {
    outcome,
    metrics: {
      originalTokens: plan.total,
      compressedTokens: after,
      tokensSaved: plan.total - after,
      compressionRatio: after / Math.max(plan.total, 1),
      originalTurns: messages.length,
      compressedTurns: turnsAfter,
      turnsRemoved: messages.length - turnsAfter,
      ...(region === undefined ? {} : { region }),
      wasCompressed: region !== undefined,
      stillOverLimit: after > settings.targetMaxTokens,
      skippedUnderTarget: outcome === 'under-target',
      summarizationApiCalls: 0,
      summarizationErrors: 0,
      strategy: region === undefined ? 'none' : 'single-pass',
      digestedOutputs: 0,
      summaryClipped: false,
      anchors,
      tokenizer: options.counter.name,
    },
  };
}
