import * as z from 'zod';
import { flag, integerAtLeast, numberAtLeast, oneOf, share, unchecked } from '../../errors/option-fields.js';
import { parseOptions, type SameKeys } from '../../errors/parse-options.js';
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
   * extractive checkpoint needs room for every path, command and error line of what it folds. @default 0.2
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

const compressorOptionsSchema = z.strictObject({
  contextLength: integerAtLeast(1).default(COMPRESSOR_DEFAULTS.contextLength),
  maxOutputTokens: numberAtLeast(0).optional(),
  thresholdPercent: share().default(COMPRESSOR_DEFAULTS.thresholdPercent),
  protectFirstN: integerAtLeast(0).default(COMPRESSOR_DEFAULTS.protectFirstN),
  protectLastN: integerAtLeast(0).default(COMPRESSOR_DEFAULTS.protectLastN),
  tailRatio: z
    .number({ error: 'a number (it is clamped to [0.1, 0.8])' })
    .default(COMPRESSOR_DEFAULTS.tailRatio)
    .transform((value) => Math.min(0.8, Math.max(0.1, value))),
  summaryRatio: share().default(COMPRESSOR_DEFAULTS.summaryRatio),
  summaryMinTokens: integerAtLeast(1).default(COMPRESSOR_DEFAULTS.summaryMinTokens),
  summaryMaxTokens: integerAtLeast(1).default(COMPRESSOR_DEFAULTS.summaryMaxTokens),
  summaryMaxShare: share().default(COMPRESSOR_DEFAULTS.summaryMaxShare),
  dedupeKeep: oneOf(['newest', 'earliest']).default(COMPRESSOR_DEFAULTS.dedupeKeep),
  orphanCalls: oneOf(['strip', 'stub']).default(COMPRESSOR_DEFAULTS.orphanCalls),
  noteInSystemPrompt: flag().default(COMPRESSOR_DEFAULTS.noteInSystemPrompt),
  abortOnSummaryFailure: flag().default(COMPRESSOR_DEFAULTS.abortOnSummaryFailure),
  model: unchecked<Summarizer>().optional(),
  summaryModel: unchecked<Summarizer>().optional(),
  extractive: unchecked<Summarizer>().optional(),
  now: unchecked<() => number>().optional(),
  counter: unchecked<TokenCounter>().optional(),
  exactCounter: unchecked<TokenCounter>().optional(),
});

// Every key of CompressorOptions, and no other, is in the schema (checked by the compiler).
true satisfies SameKeys<CompressorOptions, z.input<typeof compressorOptionsSchema>>;

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

/**
 * Applies defaults and rejects unknown keys and out-of-range values with errors that name the option. Every
 * one-call compaction builds a compressor, and the schema check costs about as much as laying out a small
 * transcript, so valid settings are remembered by the option values they came from (see {@link settingsKey}).
 */
export function resolveCompressorSettings(options: CompressorOptions): ResolvedCompressorSettings {
  const keyed = settingsKey(options);
  if (keyed === undefined) return parseCompressorSettings(options);
  const known = resolvedSettings.get(keyed.key);
  if (known !== undefined) return known;
  // The schema reads the values the key was made of, even from an object whose getters change their answer.
  const settings = Object.freeze(parseCompressorSettings(keyed.snapshot));
  if (resolvedSettings.size >= MAX_RESOLVED_SETTINGS) resolvedSettings.clear();
  resolvedSettings.set(keyed.key, settings);
  return settings;
}

/** Valid settings by {@link settingsKey}; only options that passed the schema are in it. */
const resolvedSettings = new Map<string, ResolvedCompressorSettings>();
/** Programs use a handful of configurations; past this many the map starts afresh. */
const MAX_RESOLVED_SETTINGS = 64;
const SCHEMA_KEYS: readonly string[] = Object.keys(compressorOptionsSchema.shape);
const KNOWN_KEYS: ReadonlySet<string> = new Set(SCHEMA_KEYS);
/** Keys the schema takes whatever their value (summarizers, counters, a clock): they leave settings alone. */
const UNCHECKED_KEYS: ReadonlySet<string> = new Set([
  'model',
  'summaryModel',
  'extractive',
  'now',
  'counter',
  'exactCounter',
] satisfies (keyof CompressorOptions)[]);

/**
 * What the schema's verdict on `options` depends on, read the way the schema reads it (every schema key by
 * name, every enumerable key for unknown ones), as a string: the type and value of each setting given, and
 * which unchecked keys are set. Comes with a plain copy holding exactly the values read. An undefined value is
 * the same as a missing one to every field. Undefined for options the schema rejects as a whole, with unknown
 * keys, or with a setting that is not a primitive: those always go through the schema.
 */
function settingsKey(options: CompressorOptions): { key: string; snapshot: CompressorOptions } | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return undefined;
  for (const name in options) if (!KNOWN_KEYS.has(name)) return undefined;
  let key = '';
  const snapshot: Record<string, unknown> = {};
  for (const name of SCHEMA_KEYS) {
    const value: unknown = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    snapshot[name] = value;
    if (UNCHECKED_KEYS.has(name)) key += `${name};`;
    else if (typeof value === 'string') key += `${name}=${JSON.stringify(value)};`;
    else if (typeof value === 'number') key += `${name}=${Object.is(value, -0) ? '-0' : String(value)};`;
    else if (typeof value === 'boolean') key += `${name}=${value};`;
    else return undefined;
  }
  return { key, snapshot };
}

/** {@link resolveCompressorSettings} without the memory: the schema check every time. */
export function parseCompressorSettings(options: CompressorOptions): ResolvedCompressorSettings {
  const parsed = parseOptions(compressorOptionsSchema, options, { noun: 'compressor option' });
  return {
    contextLength: parsed.contextLength,
    maxOutputTokens: parsed.maxOutputTokens,
    thresholdPercent: parsed.thresholdPercent,
    protectFirstN: parsed.protectFirstN,
    protectLastN: parsed.protectLastN,
    tailRatio: parsed.tailRatio,
    summaryRatio: parsed.summaryRatio,
    summaryMinTokens: parsed.summaryMinTokens,
    summaryMaxTokens: parsed.summaryMaxTokens,
    summaryMaxShare: parsed.summaryMaxShare,
    dedupeKeep: parsed.dedupeKeep,
    orphanCalls: parsed.orphanCalls,
    noteInSystemPrompt: parsed.noteInSystemPrompt,
    abortOnSummaryFailure: parsed.abortOnSummaryFailure,
  };
}
