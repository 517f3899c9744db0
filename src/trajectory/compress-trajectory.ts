import type { Message } from '../model/message.js';
import type { Transcript } from '../model/transcript.js';
import { createRedactor } from '../redact/redactor.js';
import { createSummarizerChain, type SummarizerChain } from '../summarizer/chain/summarizer-chain.js';
import { createExtractiveSummarizer } from '../summarizer/extractive/extractive-summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { type Assembled, assemble } from './assemble.js';
import { escalate } from './escalate.js';
import { planCompression } from './plan-compression.js';
import { type RegionSummary, type RegionSummaryContext, summarizeRegion } from './summarize-region.js';
import type { AppliedStrategy, TrajectoryMetrics } from './trajectory-metrics.js';
import { annotateTurns, findAnchors, type TurnAnnotation } from './trajectory-policy.js';
import { resolveTrajectorySettings, type TrajectorySettings } from './trajectory-settings.js';

/** Options of {@link compressTrajectory}: the data settings plus the counter, summarizer and signal. */
export interface CompressTrajectoryOptions extends TrajectorySettings {
  /** Counts every turn once (exact tokenizer, or the rough estimator when asked for). */
  readonly counter: TokenCounter;
  /** Writes the summaries. @default a chain with only the extractive summarizer (no model, no network) */
  readonly summarizer?: SummarizerChain;
  /** Cancels the summarizer call; the promise then rejects with an `ABORTED` error. */
  readonly signal?: AbortSignal;
}

/** What happened to the trajectory. */
export type TrajectoryOutcome = 'compressed' | 'under-target' | 'not-compressible';

/** Result of {@link compressTrajectory}. */
export interface TrajectoryResult {
  /** The input itself when nothing was cut; otherwise a new transcript (same envelope meta). */
  readonly transcript: Transcript;
  readonly outcome: TrajectoryOutcome;
  readonly metrics: TrajectoryMetrics;
  /** Policy labels of the output's tool turns. */
  readonly annotations: readonly TurnAnnotation[];
  /** Redacted descriptions of summarizer failures. */
  readonly summaryErrors: readonly string[];
}

/** Everything a finished pass needs to become a result. */
interface Pass {
  readonly assembled: Assembled;
  readonly summary: RegionSummary;
  readonly strategy: AppliedStrategy;
  readonly digested: number;
  readonly clipped: boolean;
  readonly calls: number;
  readonly errors: number;
  readonly errorMessages: readonly string[];
  readonly note?: string;
}

/**
 * Compresses one finished trajectory to a token budget, Hermes' way. A trajectory within `targetMaxTokens` comes
 * back unchanged. Otherwise the first system, user, assistant and tool turns, the last `protectLastN` turns
 * and the policy's anchor turns stay verbatim; turns are taken from the start of the middle until they free
 * `total − target + summaryTarget` tokens (a tool call never leaves without its results) and replaced by one
 * user turn holding their summary; later middle turns stay verbatim. When that is not enough the result says
 * `stillOverLimit`, or — with `strategy: 'escalate'` — tool outputs are digested first and the summary is clipped
 * to the room left, reported as `digest-then-summarize`. Never mutates the input.
 */
export async function compressTrajectory(
  input: Transcript | readonly Message[],
  options: CompressTrajectoryOptions,
): Promise<TrajectoryResult> {
  const transcript: Transcript = Array.isArray(input)
    ? { messages: input as readonly Message[] }
    : (input as Transcript);
  const messages = transcript.messages;
  const { counter, summarizer: _summarizer, signal: _signal, ...data } = options;
  const settings = resolveTrajectorySettings(data);
  const tokens = messages.map((message) => counter.countMessage(message));
  const anchors = findAnchors(messages, settings.policy.anchors);
  const plan = planCompression(messages, tokens, settings, anchors);
  const unchanged = (outcome: TrajectoryOutcome, note?: string): TrajectoryResult => ({
    transcript,
    outcome,
    metrics: untouchedMetrics(plan.total, messages.length, outcome, anchors, counter.name, note),
    annotations: annotateTurns(messages, settings.policy.annotations),
    summaryErrors: [],
  });
  if (plan.total <= settings.targetMaxTokens) return unchanged('under-target');
  const noMiddle = 'no turns lie between the protected head and tail';
  if (plan.region === undefined && settings.strategy === 'single-pass')
    return unchanged('not-compressible', noMiddle);
  const context: RegionSummaryContext = {
    settings,
    counter,
    chain: options.summarizer ?? defaultChain(),
    redactor: settings.redact === false ? undefined : createRedactor(settings.redact),
    signal: options.signal,
  };
  let pass: Pass | undefined;
  const region = plan.region;
  if (region !== undefined && (settings.strategy === 'single-pass' || plan.needReached)) {
    const summary = await summarizeRegion(messages, region, settings.summaryTargetTokens, context);
    pass = {
      assembled: assemble(messages, region, summary, settings, counter),
      summary,
      strategy: 'single-pass',
      digested: 0,
      clipped: false,
      calls: summary.calls,
      errors: summary.errors,
      errorMessages: summary.errorMessages,
    };
  }
  if (
    settings.strategy === 'escalate' &&
    (pass === undefined || pass.assembled.tokens > settings.targetMaxTokens)
  ) {
    const escalated = await escalate(messages, anchors, pass?.summary, context);
    if (escalated !== undefined) {
      pass = {
        ...escalated,
        calls: (pass?.calls ?? 0) + escalated.summary.calls * (escalated.reused ? 0 : 1),
        errors: (pass?.errors ?? 0) + escalated.summary.errors * (escalated.reused ? 0 : 1),
        errorMessages: [
          ...(pass?.errorMessages ?? []),
          ...(escalated.reused ? [] : escalated.summary.errorMessages),
        ],
      };
    }
  }
  if (pass === undefined) return unchanged('not-compressible', noMiddle);
  if (pass.assembled.tokens >= plan.total) {
    // A summary longer than what it replaces (tiny regions, verbose fallbacks) would only grow the record.
    const kept = unchanged('not-compressible', 'the summary would not be shorter than the turns it replaces');
    return {
      ...kept,
      metrics: { ...kept.metrics, summarizationApiCalls: pass.calls, summarizationErrors: pass.errors },
      summaryErrors: pass.errorMessages,
    };
  }
  return finish(transcript, pass, plan.total, anchors, settings.targetMaxTokens, counter.name, settings);
}

function finish(
  transcript: Transcript,
  pass: Pass,
  total: number,
  anchors: readonly number[],
  target: number,
  tokenizer: string,
  settings: ReturnType<typeof resolveTrajectorySettings>,
): TrajectoryResult {
  const { assembled, summary } = pass;
  const stillOverLimit = assembled.tokens > target;
  const note =
    pass.note ??
    (stillOverLimit
      ? 'one pass was not enough: the protected turns and the summary exceed the target (try the escalate strategy)'
      : undefined);
  const metrics: TrajectoryMetrics = {
    originalTokens: total,
    compressedTokens: assembled.tokens,
    tokensSaved: total - assembled.tokens,
    compressionRatio: assembled.tokens / Math.max(total, 1),
    originalTurns: transcript.messages.length,
    compressedTurns: assembled.messages.length,
    turnsRemoved: transcript.messages.length - assembled.messages.length,
    region: summary.region,
    wasCompressed: true,
    stillOverLimit,
    skippedUnderTarget: false,
    summarizationApiCalls: pass.calls,
    summarizationErrors: pass.errors,
    strategy: pass.strategy,
    summarySource: summary.source,
    digestedOutputs: pass.digested,
    summaryClipped: pass.clipped,
    anchors,
    tokenizer,
    ...(note === undefined ? {} : { note }),
  };
  return {
    transcript: { ...transcript, messages: assembled.messages },
    outcome: 'compressed',
    metrics,
    annotations: annotateTurns(assembled.messages, settings.policy.annotations),
    summaryErrors: pass.errorMessages,
  };
}

function untouchedMetrics(
  total: number,
  turns: number,
  outcome: TrajectoryOutcome,
  anchors: readonly number[],
  tokenizer: string,
  note: string | undefined,
): TrajectoryMetrics {
  return {
    originalTokens: total,
    compressedTokens: total,
    tokensSaved: 0,
    compressionRatio: 1,
    originalTurns: turns,
    compressedTurns: turns,
    turnsRemoved: 0,
    wasCompressed: false,
    stillOverLimit: outcome === 'not-compressible',
    skippedUnderTarget: outcome === 'under-target',
    summarizationApiCalls: 0,
    summarizationErrors: 0,
    strategy: 'none',
    digestedOutputs: 0,
    summaryClipped: false,
    anchors,
    tokenizer,
    ...(note === undefined ? {} : { note }),
  };
}

/** The chain used without a configured summarizer: extractive only, so no clock is ever read. */
function defaultChain(): SummarizerChain {
  return createSummarizerChain({ extractive: createExtractiveSummarizer(), now: () => 0 });
}
