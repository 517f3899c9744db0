import { CondenseError } from '../../errors/condense-error.js';
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
  readonly protectLastNTurns: number;
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
  protectLastNTurns: 5,
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
    protectLastNTurns: 2,
    maxToolOutputChars: 200,
    truncateHeadLines: 5,
    truncateTailLines: 3,
  },
};

const KNOWN_KEYS = new Set([
  ...Object.keys(DEFAULT_PRESET),
  'preset',
  'maxOutputTokens',
  'counter',
  'exactCounter',
]);

/** Applies the preset and defaults, and rejects unknown keys and out-of-range values naming the option. */
export function resolveRuleSettings(options: RuleEngineOptions): ResolvedRuleSettings {
  for (const key of Object.keys(options)) {
    if (!KNOWN_KEYS.has(key))
      invalid(`unknown rules engine option "${key}"`, `known options: ${[...KNOWN_KEYS].join(', ')}`);
  }
  const preset = options.preset ?? 'default';
  if (!RULE_PRESETS.includes(preset))
    invalid(`preset must be one of ${RULE_PRESETS.join(', ')}, got ${preset}`);
  const base = RULE_PRESET_SETTINGS[preset];
  const settings: ResolvedRuleSettings = {
    preset,
    enabled: options.enabled ?? base.enabled,
    contextLength: options.contextLength ?? base.contextLength,
    maxOutputTokens: options.maxOutputTokens,
    triggerThreshold: options.triggerThreshold ?? base.triggerThreshold,
    protectLastNTurns: options.protectLastNTurns ?? base.protectLastNTurns,
    maxToolOutputChars: options.maxToolOutputChars ?? base.maxToolOutputChars,
    truncateHeadLines: options.truncateHeadLines ?? base.truncateHeadLines,
    truncateTailLines: options.truncateTailLines ?? base.truncateTailLines,
    keepToolSummary: options.keepToolSummary ?? base.keepToolSummary,
    dropSystemAfterTurn: options.dropSystemAfterTurn ?? base.dropSystemAfterTurn,
    collapseConsecutiveAssistant: options.collapseConsecutiveAssistant ?? base.collapseConsecutiveAssistant,
    cacheFriendly: options.cacheFriendly ?? base.cacheFriendly,
  };
  integerAtLeast('contextLength', settings.contextLength, 1);
  if (settings.maxOutputTokens !== undefined) integerAtLeast('maxOutputTokens', settings.maxOutputTokens, 0);
  if (
    !Number.isFinite(settings.triggerThreshold) ||
    settings.triggerThreshold <= 0 ||
    settings.triggerThreshold > 1
  ) {
    invalid(`triggerThreshold must be in (0, 1], got ${settings.triggerThreshold}`);
  }
  integerAtLeast('protectLastNTurns', settings.protectLastNTurns, 1);
  integerAtLeast('maxToolOutputChars', settings.maxToolOutputChars, 50);
  integerAtLeast('truncateHeadLines', settings.truncateHeadLines, 1);
  integerAtLeast('truncateTailLines', settings.truncateTailLines, 0);
  integerAtLeast('dropSystemAfterTurn', settings.dropSystemAfterTurn, 0);
  for (const key of [
    'enabled',
    'keepToolSummary',
    'collapseConsecutiveAssistant',
    'cacheFriendly',
  ] as const) {
    if (typeof settings[key] !== 'boolean')
      invalid(`${key} must be true or false, got ${String(settings[key])}`);
  }
  return settings;
}

function invalid(message: string, hint?: string): never {
  throw new CondenseError({ code: 'INVALID_OPTIONS', message, ...(hint === undefined ? {} : { hint }) });
}

function integerAtLeast(name: string, value: number, minimum: number): void {
  if (!Number.isInteger(value) || value < minimum)
    invalid(`${name} must be an integer ≥ ${minimum}, got ${value}`);
}
