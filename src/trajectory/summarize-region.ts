import { CondenseError, isCondenseError } from '../errors/condense-error.js';
import type { Message } from '../model/message.js';
import { redactTranscriptWith } from '../redact/redact-transcript.js';
import type { Redactor } from '../redact/redactor.js';
import type { ChainResult, SummarizerChain } from '../summarizer/chain/summarizer-chain.js';
import { SUMMARY_UNAVAILABLE_TEXT } from '../summarizer/chain/summary-unavailable.js';
import type { SummaryRequest, SummarySource } from '../summarizer/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { checkpointOf } from '../transforms/checkpoint-text.js';
import type { TurnSpan } from './plan-compression.js';
import { withAnnotationNotes } from './trajectory-policy.js';
import type { ResolvedTrajectorySettings } from './trajectory-settings.js';

/** The summary of a region and what it cost. */
export interface RegionSummary {
  readonly region: TurnSpan;
  /** Summary body, redacted, without the turn's marker. */
  readonly body: string;
  readonly source: SummarySource;
  readonly calls: number;
  readonly errors: number;
  /** Redacted descriptions of the failures met. */
  readonly errorMessages: readonly string[];
}

/** What {@link summarizeRegion} needs besides the turns. */
export interface RegionSummaryContext {
  readonly settings: ResolvedTrajectorySettings;
  readonly counter: TokenCounter;
  readonly chain: SummarizerChain;
  /** Absent when redaction is off. */
  readonly redactor: Redactor | undefined;
  readonly signal: AbortSignal | undefined;
}

/** A checkpoint already in the region (the trajectory was compacted before) becomes the previous summary. */
function separateCheckpoints(messages: readonly Message[]): { turns: Message[]; previous?: string } {
  let previous: string | undefined;
  const turns = messages.filter((message) => {
    const checkpoint = checkpointOf(message);
    if (checkpoint === undefined) return true;
    previous = checkpoint.body;
    return false;
  });
  return previous === undefined ? { turns } : { turns, previous };
}

/** Failed model requests of a chain call: every request of a model that finally failed. */
function failedRequests(result: ChainResult): number {
  let failed = 0;
  for (const attempt of result.attempts)
    if (attempt.outcome === 'failed') failed += Math.max(1, attempt.calls);
  return failed;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted !== true) return;
  throw new CondenseError({ code: 'ABORTED', message: 'trajectory compression was cancelled' });
}

/**
 * Summarizes the turns of `region` through the chain (model first when one is configured, extractive
 * otherwise). The turns are redacted before they reach any summarizer and the body again on the way back; tool
 * turns carry their policy labels so the summary can tag what it reports; an earlier checkpoint in the region is
 * updated rather than summarized. A model failure yields the extractive summary, or the fixed marker when the
 * policy asks for it; a summarizer that throws yields the marker. Aborts propagate.
 */
export async function summarizeRegion(
  messages: readonly Message[],
  region: TurnSpan,
  targetTokens: number,
  context: RegionSummaryContext,
): Promise<RegionSummary> {
  const { settings, redactor } = context;
  const { turns, previous } = separateCheckpoints(messages.slice(region.start, region.end));
  const labelled = withAnnotationNotes(turns, settings.policy.annotations);
  const input =
    redactor === undefined
      ? labelled
      : redactTranscriptWith({ messages: labelled }, redactor).transcript.messages;
  const redact = (text: string): string => (redactor === undefined ? text : redactor.text(text).text);
  const focus = settings.policy.focus;
  const request: SummaryRequest = {
    messages: input,
    targetTokens,
    counter: context.counter,
    ...(previous === undefined ? {} : { previousSummary: redact(previous) }),
    ...(focus === undefined ? {} : { focusTopic: focus }),
  };
  throwIfAborted(context.signal);
  let result: ChainResult;
  try {
    result = await context.chain.summarize(
      request,
      context.signal === undefined ? {} : { signal: context.signal },
    );
  } catch (error) {
    if (isCondenseError(error) && error.code === 'ABORTED') throw error;
    throwIfAborted(context.signal);
    const message = redact(error instanceof Error ? error.message : String(error));
    return {
      region,
      body: SUMMARY_UNAVAILABLE_TEXT,
      source: 'fallback-marker',
      calls: 0,
      errors: 1,
      errorMessages: [message],
    };
  }
  const failed = failedRequests(result);
  const marker = result.fellBack && settings.onSummaryFailure === 'marker';
  return {
    region,
    body: marker ? SUMMARY_UNAVAILABLE_TEXT : redact(result.summary.text),
    source: marker ? 'fallback-marker' : result.summary.source,
    calls: result.calls,
    errors: failed,
    errorMessages: result.errors,
  };
}
