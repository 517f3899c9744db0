import type { Transcript } from '../../model/transcript.js';
import { createRoughCounter } from '../../tokens/rough-counter.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import type { CompactionReport } from '../compaction-report.js';
import type {
  CompactionResult,
  CompressOptions,
  ContextEngine,
  EngineStatus,
  ModelInfo,
  ResponseUsage,
} from '../context-engine.js';
import { computeThreshold } from '../threshold.js';
import { windowLimit } from '../window.js';
import { runCompactPass } from './compact-pass.js';
import {
  type CompressorOptions,
  type ResolvedCompressorSettings,
  resolveCompressorSettings,
} from './options.js';
import type { SummarizeFunction } from './summary-outcome.js';

/** Savings under this share count as an ineffective pass (two in a row block automatic compaction). */
const INEFFECTIVE_SAVINGS_PERCENT = 10;
const BLOCK_AFTER_STRIKES = 2;

/** Construction-time wiring of the compressor that is not a plain option. */
export interface CompressorWiring {
  /** Produces checkpoint text; the summarizer chain (model → main → extractive) in production. */
  readonly summarize: SummarizeFunction;
  /** Clears summarizer cooldowns and sticky failures (manual compaction, new session). */
  readonly resetSummarizer?: () => void;
}

/**
 * The in-flight compaction engine: prunes old tool output, keeps a head and a token-budgeted tail, folds the
 * middle into one checkpoint that later passes update, and keeps the transcript valid for every provider. It
 * owns its state (previous checkpoint, counters, anti-thrash strikes); nothing outside writes to it.
 */
export class CompressorEngine implements ContextEngine {
  readonly name = 'compressor';
  #settings: ResolvedCompressorSettings;
  #threshold: number;
  readonly #counter: TokenCounter;
  readonly #exactCounter: TokenCounter | undefined;
  readonly #summarize: SummarizeFunction;
  readonly #resetSummarizer: (() => void) | undefined;
  #compactions = 0;
  #previousSummary: string | undefined;
  #lastPromptTokens: number | undefined;
  /** Consecutive passes that saved under 10 % (or nothing). */
  #weakPasses = 0;
  /** Consecutive real prompts still over the threshold right after a compaction. */
  #overAfterCompaction = 0;
  #fallbackStreak = 0;
  #awaitingVerdict = false;

  constructor(options: CompressorOptions, wiring: CompressorWiring) {
    this.#settings = resolveCompressorSettings(options);
    this.#threshold = this.#computeThreshold();
    this.#counter = options.counter ?? createRoughCounter();
    this.#exactCounter = options.exactCounter;
    this.#summarize = wiring.summarize;
    this.#resetSummarizer = wiring.resetSummarizer;
  }

  /** The prompt size at which automatic compaction triggers. */
  get thresholdTokens(): number {
    return this.#threshold;
  }

  shouldCompress(promptTokens?: number): boolean {
    const tokens = promptTokens ?? this.#lastPromptTokens;
    if (tokens === undefined) return false;
    // A pause only ever skips optional passes: past the window, compaction is mandatory.
    if (tokens > this.#limit()) return true;
    return tokens >= this.#threshold && this.#blockedReason() === undefined;
  }

  shouldCompressPreflight(transcript: Transcript): boolean {
    return this.shouldCompress(this.#counter.countTranscript(transcript));
  }

  hasContentToCompress(transcript: Transcript): boolean {
    return (
      transcript.messages.filter((message) => message.role !== 'system').length >
      this.#settings.protectFirstN + 4
    );
  }

  async compress(transcript: Transcript, options: CompressOptions = {}): Promise<CompactionResult> {
    const force = options.force === true;
    const tokens = options.currentTokens ?? this.#counter.countTranscript(transcript);
    const overWindow = Math.max(tokens, this.#counter.countTranscript(transcript)) > this.#limit();
    if (!force && !overWindow && (tokens < this.#threshold || this.#blockedReason() !== undefined)) {
      return this.#noop(
        transcript,
        tokens,
        this.#blockedReason() ?? `below the threshold (${tokens} < ${this.#threshold} tokens)`,
      );
    }
    // A manual compaction is the user asking to retry now: forget cooldowns (Hermes clears them on force).
    if (force) this.#resetSummarizer?.();
    // Read before the pass: a pass that saves enough lifts the pause, and the report must still say why it ran.
    const paused = this.#blockedReason();
    const pass = await runCompactPass(transcript, {
      settings: this.#settings,
      thresholdTokens: this.#threshold,
      limitTokens: this.#limit(),
      counter: this.#counter,
      exactCounter: this.#exactCounter,
      summarize: this.#summarize,
      compactionCount: this.#compactions,
      previousSummary: this.#previousSummary,
      focusTopic: options.focusTopic,
      signal: options.signal,
    });
    this.#record(pass.report);
    this.#previousSummary = pass.summaryBody;
    const report =
      !force && overWindow && paused !== undefined
        ? {
            ...pass.report,
            notes: [
              ...pass.report.notes,
              `compacted although paused, because the prompt was past the window (${paused})`,
            ],
          }
        : pass.report;
    return { transcript: pass.transcript, report };
  }

  updateFromResponse(usage: ResponseUsage): void {
    if (usage.promptTokens <= 0) {
      this.#awaitingVerdict = false;
      return;
    }
    this.#lastPromptTokens = usage.promptTokens;
    if (usage.promptTokens < this.#threshold) this.#overAfterCompaction = 0;
    else if (this.#awaitingVerdict) this.#overAfterCompaction++;
    this.#awaitingVerdict = false;
  }

  updateModel(model: ModelInfo): void {
    const changed = model.contextLength !== this.#settings.contextLength;
    const { maxOutputTokens: _previousReserve, ...rest } = this.#settings;
    const reserve = model.maxOutputTokens ?? this.#settings.maxOutputTokens;
    this.#settings = resolveCompressorSettings({
      ...rest,
      contextLength: model.contextLength,
      ...(reserve === undefined ? {} : { maxOutputTokens: reserve }),
    });
    this.#threshold = this.#computeThreshold();
    this.#weakPasses = 0;
    this.#overAfterCompaction = 0;
    this.#lastPromptTokens = undefined;
    if (changed) this.#fallbackStreak = 0;
  }

  resetSession(): void {
    this.#resetSummarizer?.();
    this.#compactions = 0;
    this.#previousSummary = undefined;
    this.#lastPromptTokens = undefined;
    this.#weakPasses = 0;
    this.#overAfterCompaction = 0;
    this.#fallbackStreak = 0;
    this.#awaitingVerdict = false;
  }

  status(): EngineStatus {
    const blocked = this.#blockedReason();
    return {
      name: this.name,
      thresholdTokens: this.#threshold,
      contextLength: this.#settings.contextLength,
      compactions: this.#compactions,
      ...(this.#lastPromptTokens === undefined ? {} : { lastPromptTokens: this.#lastPromptTokens }),
      ...(blocked === undefined ? {} : { blocked }),
    };
  }

  #limit(): number {
    return windowLimit(this.#settings.contextLength, this.#settings.maxOutputTokens);
  }

  #computeThreshold(): number {
    return computeThreshold({
      contextLength: this.#settings.contextLength,
      thresholdPercent: this.#settings.thresholdPercent,
      ...(this.#settings.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: this.#settings.maxOutputTokens }),
    });
  }

  #blockedReason(): string | undefined {
    if (this.#weakPasses >= BLOCK_AFTER_STRIKES) {
      return `automatic compaction is paused: the last ${this.#weakPasses} passes saved under ${INEFFECTIVE_SAVINGS_PERCENT} %; compact manually (force) to retry`;
    }
    if (this.#overAfterCompaction >= BLOCK_AFTER_STRIKES) {
      return `automatic compaction is paused: after the last ${this.#overAfterCompaction} compactions the real prompt was still over the threshold; compact manually (force) to retry`;
    }
    if (this.#fallbackStreak >= BLOCK_AFTER_STRIKES) {
      return `automatic compaction is paused: the last ${this.#fallbackStreak} passes could not make a summary; compact manually (force) to retry`;
    }
    return undefined;
  }

  #record(report: CompactionReport): void {
    if (report.aborted) return;
    if (report.madeProgress) {
      this.#compactions++;
      this.#awaitingVerdict = true;
      this.#lastPromptTokens = undefined;
      this.#fallbackStreak = report.summary.source === 'fallback-marker' ? this.#fallbackStreak + 1 : 0;
    }
    const weak = !report.madeProgress || report.savings.percent < INEFFECTIVE_SAVINGS_PERCENT;
    this.#weakPasses = weak ? this.#weakPasses + 1 : 0;
  }

  #noop(transcript: Transcript, tokens: number, reason: string): CompactionResult {
    const rough = this.#counter.countTranscript(transcript);
    const report: CompactionReport = {
      engine: this.name,
      tokensBefore: { rough },
      tokensAfter: { rough },
      messagesBefore: transcript.messages.length,
      messagesAfter: transcript.messages.length,
      pruning: { deduplicated: 0, digested: 0, argumentsShrunk: 0, imagesStripped: 0 },
      summary: { source: 'none', calls: 0, tokens: 0, updatedPrevious: false },
      dropped: 0,
      errors: [],
      savings: { tokens: 0, percent: 0 },
      madeProgress: false,
      aborted: false,
      reason,
      notes: tokens === rough ? [] : [`measured prompt: ${tokens} tokens`],
    };
    return { transcript, report };
  }
}
