import type { FormatName } from '../model/format.js';
import type { SummarizerChain } from '../summarizer/chain/summarizer-chain.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { EntryOutcome } from '../trajectory/metrics-aggregate.js';
import type { TrajectoryMetrics } from '../trajectory/trajectory-metrics.js';
import type { TrajectorySettings } from '../trajectory/trajectory-settings.js';

/** The model that writes summaries, with everything needed to build it in any thread. */
export interface JobModel {
  /** `openai:<id>`, `anthropic:<id>`, `openai-compatible:<id>`. */
  readonly spec: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly temperature?: number;
  /** Retries of a transient failure (each request counts as an API call). @default 2 */
  readonly maxRetries?: number;
  /** Time allowed per request, in milliseconds. */
  readonly timeoutMs?: number;
}

/**
 * Everything a thread needs to process entries: plain data only, because it is handed to worker threads as is.
 */
export interface TrajectoryJobConfig {
  readonly settings: TrajectorySettings;
  /** `o200k_base`, `cl100k_base`, a model name, a tokenizer.json path, or `rough`. */
  readonly tokenizer: string;
  /** Directory relative tokenizer paths are resolved against. */
  readonly cwd: string;
  /** Summaries come from this model, with the extractive builder as fallback; extractive only when absent. */
  readonly model?: JobModel;
  /** Add `compression_metrics` to compressed entries. @default true */
  readonly perTrajectoryMetrics?: boolean;
  /** Plan only: count and decide, call no summarizer, write nothing. @default false */
  readonly dryRun?: boolean;
}

/** What one thread holds to process entries: the counter and the summarizer chain, built once. */
export interface TrajectoryRuntime {
  readonly counter: TokenCounter;
  readonly chain: SummarizerChain;
}

/** One entry to process. */
export interface EntryJob {
  /** Unique within a run. */
  readonly id: number;
  readonly format: FormatName;
  /** The entry's JSON text (a JSONL line, or one element of a JSON array). */
  readonly text: string;
  readonly line: number;
}

/** How one entry ended: an outcome of trajectory compression, or a line that is not JSON. */
export type JobOutcome = EntryOutcome | 'invalid';

/** The result of one entry: the text to write (the original one unless the entry was compressed), and why. */
export interface EntryResult {
  readonly outcome: JobOutcome;
  readonly text: string;
  readonly metrics?: TrajectoryMetrics;
  /** What went wrong, for failed, timed-out, invalid and pass-through entries (redacted). */
  readonly message?: string;
  /** Redacted summarizer failures met while the entry was still compressed. */
  readonly summaryErrors?: readonly string[];
}
