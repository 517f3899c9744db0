import { CondenseError } from '../../errors/condense-error.js';
import type { Summarizer } from '../../summarizer/summarizer.js';
import type { TokenCounter } from '../../tokens/token-counter.js';

/** Options of the compressor engine. Every field is optional; defaults live in {@link COMPRESSOR_DEFAULTS}. */
export interface CompressorOptions {
  /** Context window of the model the agent talks to, in tokens. @default 128_000 */
  readonly contextLength?: number;
  /** Output reservation taken out of the window before the threshold is computed. */
  readonly maxOutputTokens?: number;
  /** Share of the effective window at which automatic compaction triggers (raised to 0.75 below 512 K). @default 0.5 */
  readonly thresholdPercent?: number;
  /** Non-system messages kept verbatim at the start on the first compaction (0 afterwards). @default 3 */
  readonly protectFirstN?: number;
  /** Messages at the end that pruning never touches; also the floor of the kept tail (capped at 8). @default 20 */
  readonly protectLastN?: number;
  /** Kept tail budget as a share of the threshold, clamped to [0.1, 0.8]. @default 0.2 */
  readonly tailRatio?: number;
  /** Share of the folded turns' tokens the checkpoint aims at. @default 0.2 */
  readonly summaryRatio?: number;
  /** Checkpoint target floor in tokens (never above half of the folded turns). @default 2_000 */
  readonly summaryMinTokens?: number;
  /** Checkpoint target ceiling in tokens. @default 10_000 */
  readonly summaryMaxTokens?: number;
  /**
   * Checkpoint target ceiling as a share of the context window (the lower ceiling wins). Hermes uses 0.05; the
   * extractive checkpoint needs room for every path, command and error line of what it folds. @default 0.15
   */
  readonly summaryMaxShare?: number;
  /** Which copy of a duplicated tool output stays whole: `earliest` keeps the cached prefix stable. @default 'newest' */
  readonly dedupeKeep?: 'newest' | 'earliest';
  /** What happens to tool calls whose results were cut away: removed (Hermes) or answered by a stub. @default 'strip' */
  readonly orphanCalls?: 'strip' | 'stub';
  /** Also append a one-line compaction note to the system prompt (changes its bytes). @default false */
  readonly noteInSystemPrompt?: boolean;
  /** Leave the transcript unchanged when no summary can be made, instead of using the extractive checkpoint. @default false */
  readonly abortOnSummaryFailure?: boolean;
  /** The main model's summarizer. Without any model, the extractive summarizer writes every checkpoint. */
  readonly model?: Summarizer;
  /** A cheaper model dedicated to checkpoints, tried before `model`. */
  readonly summaryModel?: Summarizer;
  /** The model-free summarizer used when no model is set or all failed. Default: `createExtractiveSummarizer()`. */
  readonly extractive?: Summarizer;
  /** Clock for summarizer cooldowns, in epoch milliseconds. @default Date.now */
  readonly now?: () => number;
  /** Estimator used for budgets and reports. Default: the calibrated rough counter. */
  readonly counter?: TokenCounter;
  /** Exact counter for reports, when configured. */
  readonly exactCounter?: TokenCounter;
}

/** The defaults of {@link CompressorOptions}. */
export const COMPRESSOR_DEFAULTS = {
  contextLength: 128_000,
  thresholdPercent: 0.5,
  protectFirstN: 3,
  protectLastN: 20,
  tailRatio: 0.2,
  summaryRatio: 0.2,
  summaryMinTokens: 2_000,
  summaryMaxTokens: 10_000,
  summaryMaxShare: 0.2,
  dedupeKeep: 'newest',
  orphanCalls: 'strip',
  noteInSystemPrompt: false,
  abortOnSummaryFailure: false,
} as const;

const KNOWN_KEYS = new Set([
  ...Object.keys(COMPRESSOR_DEFAULTS),
  'maxOutputTokens',
  'model',
  'summaryModel',
  'extractive',
  'now',
  'counter',
  'exactCounter',
]);

/** Numeric option values after validation. */
export interface ResolvedCompressorSettings {
  readonly contextLength: number;
  readonly maxOutputTokens: number | undefined;
  readonly thresholdPercent: number;
  readonly protectFirstN: number;
  readonly protectLastN: number;
  readonly tailRatio: number;
  readonly summaryRatio: number;
  readonly summaryMinTokens: number;
  readonly summaryMaxTokens: number;
  readonly summaryMaxShare: number;
  readonly dedupeKeep: 'newest' | 'earliest';
  readonly orphanCalls: 'strip' | 'stub';
  readonly noteInSystemPrompt: boolean;
  readonly abortOnSummaryFailure: boolean;
}

/** Applies defaults and rejects unknown keys and out-of-range values with errors that name the option. */
export function resolveCompressorSettings(options: CompressorOptions): ResolvedCompressorSettings {
  for (const key of Object.keys(options)) {
    if (!KNOWN_KEYS.has(key))
      invalid(`unknown compressor option "${key}"`, `known options: ${[...KNOWN_KEYS].join(', ')}`);
  }
  const settings = {
    contextLength: options.contextLength ?? COMPRESSOR_DEFAULTS.contextLength,
    maxOutputTokens: options.maxOutputTokens,
    thresholdPercent: options.thresholdPercent ?? COMPRESSOR_DEFAULTS.thresholdPercent,
    protectFirstN: options.protectFirstN ?? COMPRESSOR_DEFAULTS.protectFirstN,
    protectLastN: options.protectLastN ?? COMPRESSOR_DEFAULTS.protectLastN,
    tailRatio: clamp(options.tailRatio ?? COMPRESSOR_DEFAULTS.tailRatio, 0.1, 0.8),
    summaryRatio: options.summaryRatio ?? COMPRESSOR_DEFAULTS.summaryRatio,
    summaryMinTokens: options.summaryMinTokens ?? COMPRESSOR_DEFAULTS.summaryMinTokens,
    summaryMaxTokens: options.summaryMaxTokens ?? COMPRESSOR_DEFAULTS.summaryMaxTokens,
    summaryMaxShare: options.summaryMaxShare ?? COMPRESSOR_DEFAULTS.summaryMaxShare,
    dedupeKeep: options.dedupeKeep ?? COMPRESSOR_DEFAULTS.dedupeKeep,
    orphanCalls: options.orphanCalls ?? COMPRESSOR_DEFAULTS.orphanCalls,
    noteInSystemPrompt: options.noteInSystemPrompt ?? COMPRESSOR_DEFAULTS.noteInSystemPrompt,
    abortOnSummaryFailure: options.abortOnSummaryFailure ?? COMPRESSOR_DEFAULTS.abortOnSummaryFailure,
  };
  positiveInteger('contextLength', settings.contextLength);
  if (settings.maxOutputTokens !== undefined && settings.maxOutputTokens < 0)
    invalid('maxOutputTokens must be ≥ 0');
  ratio('thresholdPercent', settings.thresholdPercent);
  ratio('summaryRatio', settings.summaryRatio);
  ratio('summaryMaxShare', settings.summaryMaxShare);
  nonNegativeInteger('protectFirstN', settings.protectFirstN);
  nonNegativeInteger('protectLastN', settings.protectLastN);
  positiveInteger('summaryMinTokens', settings.summaryMinTokens);
  positiveInteger('summaryMaxTokens', settings.summaryMaxTokens);
  if (!['newest', 'earliest'].includes(settings.dedupeKeep))
    invalid('dedupeKeep must be "newest" or "earliest"');
  if (!['strip', 'stub'].includes(settings.orphanCalls)) invalid('orphanCalls must be "strip" or "stub"');
  return settings;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function invalid(message: string, hint?: string): never {
  throw new CondenseError({ code: 'INVALID_OPTIONS', message, ...(hint === undefined ? {} : { hint }) });
}

function positiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) invalid(`${name} must be a positive integer, got ${value}`);
}

function nonNegativeInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) invalid(`${name} must be an integer ≥ 0, got ${value}`);
}

function ratio(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0 || value > 1) invalid(`${name} must be in (0, 1], got ${value}`);
}
