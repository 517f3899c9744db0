import type { Message } from '../model/message.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** What a summarizer is asked to condense into a checkpoint. */
export interface SummaryRequest {
  /** The turns to fold into the checkpoint, oldest first (already pruned, never containing an earlier checkpoint). */
  readonly messages: readonly Message[];
  /** Body of the previous checkpoint, when this pass updates it instead of starting over. */
  readonly previousSummary?: string;
  /** Topic that gets most of the budget (`/compress <topic>`). */
  readonly focusTopic?: string;
  /** The latest real user request, verbatim, wherever it sits in the transcript (for the Current Request section). */
  readonly latestUserRequest?: string;
  /**
   * Every request the person made in the whole transcript (kept head and tail included), oldest first,
   * verbatim: where the original and the current request are found when the folded turns hold neither.
   */
  readonly userRequests?: readonly string[];
  /** Length the checkpoint should aim for, in tokens of `counter`. */
  readonly targetTokens: number;
  /**
   * A hard limit, in tokens of `counter`, that the checkpoint must not exceed (the room left in the context
   * window). The extractive summarizer gives up content to meet it; a model answer over it is refused.
   */
  readonly maxTokens?: number;
  readonly counter: TokenCounter;
}

/** Where checkpoint text came from. `fallback-marker` is the static last resort when every summarizer failed. */
export type SummarySource = 'model' | 'extractive' | 'fallback-marker';

/** A checkpoint body (without condense's handoff header), and how it was made. */
export interface SummaryResult {
  readonly text: string;
  readonly source: Exclude<SummarySource, 'fallback-marker'>;
  /** Model id for model summaries. */
  readonly model?: string;
  /** Number of summarizer calls (more than one when the input was folded in chunks). */
  readonly calls: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /**
   * What the summarizer had to give up, for the report: artifacts left out to fit `targetTokens`, a budget
   * that could not be met. Absent when nothing was given up.
   */
  readonly notes?: readonly string[];
}

/** Per-call context of a summarizer. */
export interface SummarizeContext {
  readonly signal?: AbortSignal;
}

/** Turns transcript turns into checkpoint text. Implementations: model (AI SDK) and extractive (no model). */
export interface Summarizer {
  readonly name: string;
  readonly kind: 'model' | 'extractive';
  /** Rejects with a `SummarizerError` (model summarizers) when no usable summary could be made. */
  summarize(request: SummaryRequest, context?: SummarizeContext): Promise<SummaryResult>;
}
