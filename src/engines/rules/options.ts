import * as z from 'zod';
import { flag, integerAtLeast, oneOf, share, unchecked } from '../../errors/option-fields.js';
import { alias, parseOptions, type SameKeys } from '../../errors/parse-options.js';
import type { TokenCounter } from '../../tokens/token-counter.js';

/** Named starting points for the rule settings; explicit options override them. */
export type RulePreset = 'default' | 'strict';

/** Every preset name, in the order help texts list them. */
export const RULE_PRESETS: readonly RulePreset[] = ['default', 'strict'];

/** Options of the rules engine. Every field is optional; defaults come from the preset ({@link RULE_PRESET_SETTINGS}). */
export interface RuleEngineOptions {
  /** Starting values for every rule setting below. @default 'default' */
  readonly preset?: RulePreset;
  /** Automatic compaction on or off; a manual (forced) compaction still runs when off. @default true */
  readonly enabled?: boolean;
  /** Context window of the model the agent talks to, in tokens. @default 128_000 */
  readonly contextLength?: number;
  /** Output reservation taken out of the window before the threshold is computed. */
  readonly maxOutputTokens?: number;
  /** Share of the effective window at which automatic compaction triggers (taken as is, no floor). @default 0.6 */
  readonly triggerThreshold?: number;
  /** Assistant steps (each with its tool results) at the end that no rule touches. @default 5 (strict: 2) */
  readonly protectLastN?: number;
  /** @deprecated Use {@link RuleEngineOptions.protectLastN}, the same setting under the name every engine uses. */
  readonly protectLastNTurns?: number;
  /** Tool outputs longer than this (characters) are cut to their first and last lines. @default 500 (strict: 200) */
  readonly maxToolOutputChars?: number;
  /** Lines kept at the start of a truncated output. @default 10 (strict: 5) */
  readonly truncateHeadLines?: number;
  /** Lines kept at the end of a truncated output. @default 5 (strict: 3) */
  readonly truncateTailLines?: number;
  /** Collapse succeeded tool call/result pairs into one-line records (rule 1). @default true */
  readonly keepToolSummary?: boolean;
  /** System messages after this many user turns are replaced by a one-line marker; 0 turns the rule off. @default 1 */
  readonly dropSystemAfterTurn?: number;
  /** Fold runs of consecutive assistant messages into the last one (rule 4). @default true */
  readonly collapseConsecutiveAssistant?: boolean;
  /** Never rewrite what an earlier pass of this engine already emitted, so cached prompt prefixes survive. @default false */
  readonly cacheFriendly?: boolean;
  /** Estimator used for the threshold and reports. Default: the calibrated rough counter. */
  readonly counter?: TokenCounter;
  /** Exact counter for reports, when configured. */
  readonly exactCounter?: TokenCounter;
}

/** Rule settings after presets, defaults and validation. */
export interface ResolvedRuleSettings {
  readonly preset: RulePreset;
  readonly enabled: boolean;
  readonly contextLength: number;
  readonly maxOutputTokens: number | undefined;
  readonly triggerThreshold: number;
  /** Assistant steps at the end that no rule touches. */
  readonly protectLastN: number;
  readonly maxToolOutputChars: number;
  readonly truncateHeadLines: number;
  readonly truncateTailLines: number;
  readonly keepToolSummary: boolean;
  readonly dropSystemAfterTurn: number;
  readonly collapseConsecutiveAssistant: boolean;
  readonly cacheFriendly: boolean;
}

type PresetSettings = Omit<ResolvedRuleSettings, 'preset' | 'maxOutputTokens'>;

const DEFAULT_PRESET: PresetSettings = {
  enabled: true,
  contextLength: 128_000,
  triggerThreshold: 0.6,
  protectLastN: 5,
  maxToolOutputChars: 500,
  truncateHeadLines: 10,
  truncateTailLines: 5,
  keepToolSummary: true,
  dropSystemAfterTurn: 1,
  collapseConsecutiveAssistant: true,
  cacheFriendly: false,
};

/**
 * The settings each preset starts from. `strict` is for transcripts the default rules leave above the target:
 * a shorter protected tail and tighter truncation.
 */
export const RULE_PRESET_SETTINGS: Readonly<Record<RulePreset, PresetSettings>> = {
  default: DEFAULT_PRESET,
  strict: {
    ...DEFAULT_PRESET,
    protectLastN: 2,
    maxToolOutputChars: 200,
    truncateHeadLines: 5,
    truncateTailLines: 3,
  },
};

/**
 * Each option's schema, with what a valid value is in the words of error messages; `parseRuleConfig` checks the
 * YAML keys with the same fields.
 */
export const RULE_OPTION_FIELDS = {
  preset: oneOf(RULE_PRESETS as ['default', 'strict'], RULE_PRESETS.join(' or ')),
  enabled: flag(),
  contextLength: integerAtLeast(1, 'a whole number of tokens ≥ 1'),
  maxOutputTokens: integerAtLeast(0, 'a whole number of tokens ≥ 0'),
  triggerThreshold: share('a share of the context window in (0, 1], e.g. 0.60'),
  protectLastN: integerAtLeast(1, 'a whole number of turns ≥ 1'),
  protectLastNTurns: integerAtLeast(1, 'a whole number of turns ≥ 1'),
  maxToolOutputChars: integerAtLeast(50, 'a whole number of characters ≥ 50'),
  truncateHeadLines: integerAtLeast(1, 'a whole number ≥ 1'),
  truncateTailLines: integerAtLeast(0, 'a whole number ≥ 0'),
  keepToolSummary: flag(),
  dropSystemAfterTurn: integerAtLeast(0, 'a whole number of turns ≥ 0 (0 keeps every system message)'),
  collapseConsecutiveAssistant: flag(),
  cacheFriendly: flag(),
  counter: unchecked<TokenCounter>(),
  exactCounter: unchecked<TokenCounter>(),
} as const satisfies Record<keyof RuleEngineOptions, z.ZodType>;

const ruleOptionsSchema = z.strictObject(RULE_OPTION_FIELDS).partial();

// Every key of RuleEngineOptions, and no other, is in the schema (checked by the compiler).
true satisfies SameKeys<RuleEngineOptions, z.input<typeof ruleOptionsSchema>>;

/** Applies the preset and defaults, and rejects unknown keys and out-of-range values naming the option. */
export function resolveRuleSettings(options: RuleEngineOptions): ResolvedRuleSettings {
  const parsed = parseOptions(ruleOptionsSchema, options, { noun: 'rules engine option' });
  const preset = parsed.preset ?? 'default';
  const base = RULE_PRESET_SETTINGS[preset];
  return {
    preset,
    enabled: parsed.enabled ?? base.enabled,
    contextLength: parsed.contextLength ?? base.contextLength,
    maxOutputTokens: parsed.maxOutputTokens,
    triggerThreshold: parsed.triggerThreshold ?? base.triggerThreshold,
    protectLastN: alias(parsed, 'protectLastN', 'protectLastNTurns') ?? base.protectLastN,
    maxToolOutputChars: parsed.maxToolOutputChars ?? base.maxToolOutputChars,
    truncateHeadLines: parsed.truncateHeadLines ?? base.truncateHeadLines,
    truncateTailLines: parsed.truncateTailLines ?? base.truncateTailLines,
    keepToolSummary: parsed.keepToolSummary ?? base.keepToolSummary,
    dropSystemAfterTurn: parsed.dropSystemAfterTurn ?? base.dropSystemAfterTurn,
    collapseConsecutiveAssistant: parsed.collapseConsecutiveAssistant ?? base.collapseConsecutiveAssistant,
    cacheFriendly: parsed.cacheFriendly ?? base.cacheFriendly,
  };
}
