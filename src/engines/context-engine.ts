import type { JsonObject } from '../model/json.js';
import type { Transcript } from '../model/transcript.js';
import type { CompactionReport } from './compaction-report.js';

/** Per-call options of {@link ContextEngine.compress}. */
export interface CompressOptions {
  /** Topic that gets most of the summary budget (`/compress <topic>`). */
  readonly focusTopic?: string;
  /** The real prompt size the caller measured, when known (display and progress checks). */
  readonly currentTokens?: number;
  /** Manual compaction: ignore cooldowns and the anti-thrash block, compact even under the threshold. */
  readonly force?: boolean;
  readonly signal?: AbortSignal;
}

/** A compacted transcript and the report of how it was made. */
export interface CompactionResult {
  readonly transcript: Transcript;
  readonly report: CompactionReport;
}

/** Token usage a provider reported for one response (what `updateFromResponse` learns from). */
export interface ResponseUsage {
  readonly promptTokens: number;
  readonly completionTokens?: number;
}

/** The model the agent talks to, for threshold arithmetic. */
export interface ModelInfo {
  readonly contextLength: number;
  /** Output reservation subtracted from the window. */
  readonly maxOutputTokens?: number;
  readonly model?: string;
}

/** A tool an engine offers to the agent (e.g. recall of compacted content). */
export interface EngineTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly parameters: JsonObject;
}

/** A snapshot of an engine's state for display. */
export interface EngineStatus {
  readonly name: string;
  readonly thresholdTokens: number;
  readonly contextLength: number;
  readonly compactions: number;
  readonly lastPromptTokens?: number;
  /** Why automatic compaction is blocked, if it is. */
  readonly blocked?: string;
}

/**
 * A context engine decides when a live transcript must shrink and shrinks it. It owns its state (previous
 * checkpoint, counters, cooldowns); nothing outside writes to it. `compress` never mutates its input.
 */
export interface ContextEngine {
  readonly name: string;
  /** True when a prompt of this many tokens (default: the last reported) crosses the threshold and nothing blocks. */
  shouldCompress(promptTokens?: number): boolean;
  /** Estimate-based check before a request is sent. */
  shouldCompressPreflight(transcript: Transcript): boolean;
  /** True when the transcript has a middle that compaction could fold. */
  hasContentToCompress(transcript: Transcript): boolean;
  compress(transcript: Transcript, options?: CompressOptions): Promise<CompactionResult>;
  /** Learns the real prompt size after a request (threshold checks, anti-thrash verdict). */
  updateFromResponse(usage: ResponseUsage): void;
  /** Switches the model (re-derives the threshold, clears calibration). */
  updateModel(model: ModelInfo): void;
  /** Forgets everything about the current conversation (`/new`). */
  resetSession(): void;
  /** Tools the engine offers the agent, if any. */
  tools?(): readonly EngineTool[];
  /** Runs one of the engine's tools; returns the text result for the agent. */
  handleToolCall?(name: string, args: JsonObject): Promise<string>;
  status(): EngineStatus;
}
