import type { JsonObject } from '../model/json.js';
import type { Transcript } from '../model/transcript.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CompactionReport } from './compaction-report.js';
import type { CompactionResult, EngineTool, ModelInfo } from './context-engine.js';

/** The window a compactor works in, as its settings define it. */
export interface CompactorWindow {
  readonly contextLength: number;
  /** Output reservation subtracted from the window. */
  readonly maxOutputTokens?: number | undefined;
  /** Prompt size at which automatic compaction triggers. */
  readonly thresholdTokens: number;
}

/** What the governor hands a compactor for one pass. */
export interface CompactorPass {
  readonly thresholdTokens: number;
  /** The most the output may take: the window less the output reservation. */
  readonly limitTokens: number;
  /** Compactions already made in this conversation. */
  readonly compactions: number;
  /** A manual compaction (the governor already let it through). */
  readonly force: boolean;
  readonly focusTopic: string | undefined;
  readonly signal: AbortSignal | undefined;
}

/** Why a compactor's configuration turned automatic compaction off. */
export interface CompactorDisabled {
  /** For `status().blocked`. */
  readonly status: string;
  /** For the report of a pass that did not run. */
  readonly reason: string;
}

/**
 * How an engine shrinks a transcript, without the bookkeeping of when: the governor ({@link GovernedEngine})
 * decides whether a pass runs (threshold, force, window, anti-thrash pauses), learns the real prompt size from
 * responses and keeps the counters; the compactor only compacts and keeps what its own passes need (previous
 * checkpoint, recall store). `compact` never mutates its input. An output past `limitTokens` is returned as is:
 * the governor raises `BUDGET_UNREACHABLE` with it as the best result (a compactor may also raise it itself,
 * and then nothing is recorded).
 */
export interface Compactor {
  readonly name: string;
  /** Counts prompts for the threshold and the window. */
  readonly counter: TokenCounter;
  /** The window and trigger point of the current settings. */
  window(): CompactorWindow;
  /** Switches the model: re-derive the settings (throws on invalid ones, before the governor changes anything). */
  updateModel(model: ModelInfo): void;
  compact(transcript: Transcript, pass: CompactorPass): Promise<CompactionResult>;
  /** True when the transcript has something a pass could shrink. */
  hasContentToCompress(transcript: Transcript): boolean;
  /** The report of a pass that did not run; the governor adds the measured-prompt note. Default: a neutral report. */
  idleReport?(transcript: Transcript, tokens: number, reason: string): CompactionReport;
  /** Set when the configuration turned automatic compaction off (forced passes still run). */
  disabled?(): CompactorDisabled | undefined;
  /** A manual compaction is about to run: forget cooldowns. */
  onForce?(): void;
  /** Forget the conversation (`/new`). */
  resetSession?(): void;
  tools?(): readonly EngineTool[];
  handleToolCall?(name: string, args: JsonObject): Promise<string>;
}
