import type { Transcript } from '../../model/transcript.js';
import { createRoughCounter } from '../../tokens/rough-counter.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import type { Compactor, CompactorPass, CompactorWindow } from '../compactor.js';
import type { CompactionResult, ModelInfo } from '../context-engine.js';
import { GovernedEngine } from '../governor.js';
import { computeThreshold } from '../threshold.js';
import { runCompactPass } from './compact-pass.js';
import {
  type CompressorOptions,
  type ResolvedCompressorSettings,
  resolveCompressorSettings,
} from './options.js';
import type { SummarizeFunction } from './summary-outcome.js';

/** Construction-time wiring of the compressor that is not a plain option. */
export interface CompressorWiring {
  /** Produces checkpoint text; the summarizer chain (model → main → extractive) in production. */
  readonly summarize: SummarizeFunction;
  /** Clears summarizer cooldowns and sticky failures (manual compaction, new session). */
  readonly resetSummarizer?: () => void;
}

/**
 * The compressor's passes: prune old tool output, keep a head and a token-budgeted tail, fold the middle into
 * one checkpoint that later passes update. It remembers the last checkpoint body; when to run is the governor's.
 */
class CompressorCompactor implements Compactor {
  readonly name = 'compressor';
  readonly counter: TokenCounter;
  #settings: ResolvedCompressorSettings;
  readonly #exactCounter: TokenCounter | undefined;
  readonly #summarize: SummarizeFunction;
  readonly #resetSummarizer: (() => void) | undefined;
  #previousSummary: string | undefined;

  constructor(options: CompressorOptions, wiring: CompressorWiring) {
    this.#settings = resolveCompressorSettings(options);
    this.counter = options.counter ?? createRoughCounter();
    this.#exactCounter = options.exactCounter;
    this.#summarize = wiring.summarize;
    this.#resetSummarizer = wiring.resetSummarizer;
  }

  /** Threshold arithmetic as Hermes: raised floors for small windows, a 64 K minimum. */
  window(): CompactorWindow {
    const { contextLength, maxOutputTokens, thresholdPercent } = this.#settings;
    return {
      contextLength,
      maxOutputTokens,
      thresholdTokens: computeThreshold({
        contextLength,
        thresholdPercent,
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      }),
    };
  }

  updateModel(model: ModelInfo): void {
    const { maxOutputTokens: _previousReserve, ...rest } = this.#settings;
    const reserve = model.maxOutputTokens ?? this.#settings.maxOutputTokens;
    this.#settings = resolveCompressorSettings({
      ...rest,
      contextLength: model.contextLength,
      ...(reserve === undefined ? {} : { maxOutputTokens: reserve }),
    });
  }

  hasContentToCompress(transcript: Transcript): boolean {
    return (
      transcript.messages.filter((message) => message.role !== 'system').length >
      this.#settings.protectFirstN + 4
    );
  }

  async compact(transcript: Transcript, pass: CompactorPass): Promise<CompactionResult> {
    const result = await runCompactPass(transcript, {
      settings: this.#settings,
      thresholdTokens: pass.thresholdTokens,
      limitTokens: pass.limitTokens,
      counter: this.counter,
      exactCounter: this.#exactCounter,
      summarize: this.#summarize,
      compactionCount: pass.compactions,
      previousSummary: this.#previousSummary,
      focusTopic: pass.focusTopic,
      signal: pass.signal,
    });
    this.#previousSummary = result.summaryBody;
    return { transcript: result.transcript, report: result.report };
  }

  onForce(): void {
    this.#resetSummarizer?.();
  }

  resetSession(): void {
    this.#resetSummarizer?.();
    this.#previousSummary = undefined;
  }
}

/**
 * The in-flight compaction engine: prunes old tool output, keeps a head and a token-budgeted tail, folds the
 * middle into one checkpoint that later passes update, and keeps the transcript valid for every provider. The
 * governor it extends owns triggering, usage learning and the anti-thrash pauses.
 */
export class CompressorEngine extends GovernedEngine {
  declare readonly name: 'compressor';

  constructor(options: CompressorOptions, wiring: CompressorWiring) {
    super(new CompressorCompactor(options, wiring));
  }
}
