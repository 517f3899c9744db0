import * as z from 'zod';
import { flag, integerAtLeast, oneOf, unchecked } from '../errors/option-fields.js';
import { alias, invalidOption, parseOptions, type SameKeys } from '../errors/parse-options.js';
import type { RedactOptions } from '../redact/options.js';
import type { TrajectoryPolicy } from './trajectory-policy.js';

/** Which first turn of each role stays verbatim (Hermes' `protect_first_*` flags, in the model's role names). */
export interface ProtectFirst {
  /** @default true */
  readonly system?: boolean;
  /** The first user (ShareGPT `human`) turn. @default true */
  readonly user?: boolean;
  /** The first assistant (ShareGPT `gpt`) turn. @default true */
  readonly assistant?: boolean;
  /** The first tool turn. @default true */
  readonly tool?: boolean;
}

/**
 * What to do when one pass does not bring a trajectory under the target. `single-pass`: Hermes' behaviour, the
 * result is reported `stillOverLimit`. `escalate`: digest tool outputs deterministically (anchor turns
 * excepted), cut and summarize again, and clip the summary to the room left, reported as the
 * `digest-then-summarize` strategy.
 */
export type OverLimitStrategy = 'single-pass' | 'escalate';

/**
 * How the summary turn is marked. `hermes`: `[CONTEXT SUMMARY]: ` followed by the summary, the prefix Hermes'
 * trajectory compressor writes (datasets stay compatible with its consumers; the source is in the metrics).
 * `condense`: condense's checkpoint header, which names the source in the text.
 */
export type SummaryStyle = 'hermes' | 'condense';

/**
 * What the summary turn says when the model failed. `extractive`: the chain's extractive checkpoint (built from
 * the turns themselves). `marker`: a fixed marker saying the turns were removed without a record, as Hermes does.
 */
export type SummaryFailurePolicy = 'extractive' | 'marker';

/** Every data option of trajectory compression (no functions: it crosses worker-thread boundaries). */
export interface TrajectorySettings {
  /** Token budget of a compressed trajectory. @default 15250 */
  readonly targetMaxTokens?: number;
  /** Length the summary turn aims for, in tokens. @default 750 */
  readonly summaryTargetTokens?: number;
  /** First turns kept verbatim. @default every role */
  readonly protectFirst?: ProtectFirst;
  /** Last turns kept verbatim. @default 4 */
  readonly protectLastN?: number;
  /** @deprecated Use {@link TrajectorySettings.protectLastN}, the same setting under the name every engine uses. */
  readonly protectLastTurns?: number;
  /** @default 'single-pass' */
  readonly strategy?: OverLimitStrategy;
  /** @default 'hermes' */
  readonly summaryStyle?: SummaryStyle;
  /** @default 'extractive' */
  readonly onSummaryFailure?: SummaryFailurePolicy;
  /**
   * Appends a notice to the first system turn when turns were summarized: `true` for the default text, or the
   * text itself. Off by default so the system prompt's bytes (and a provider's prefix cache) stay unchanged.
   * @default false
   */
  readonly summaryNotice?: boolean | string;
  /** Domain policy: anchor turns, tool annotations, summary focus. @default none */
  readonly policy?: TrajectoryPolicy;
  /** Redaction of the summary text on its way out, or `false`. @default {} (built-in rules) */
  readonly redact?: RedactOptions | false;
}

/** {@link TrajectorySettings} with every default filled in. */
export interface ResolvedTrajectorySettings {
  readonly targetMaxTokens: number;
  readonly summaryTargetTokens: number;
  readonly protectFirst: Required<ProtectFirst>;
  readonly protectLastN: number;
  readonly strategy: OverLimitStrategy;
  readonly summaryStyle: SummaryStyle;
  readonly onSummaryFailure: SummaryFailurePolicy;
  readonly summaryNotice: string | undefined;
  readonly policy: TrajectoryPolicy;
  readonly redact: RedactOptions | false;
}

/** Text appended to the first system turn when `summaryNotice` is `true`. */
export const DEFAULT_SUMMARY_NOTICE =
  '\n\nSome earlier turns of this conversation have been condensed into a summary to save context space.';

/** The defaults of {@link TrajectorySettings}, in one place (Hermes' code defaults where it has them). */
export const DEFAULT_TRAJECTORY_SETTINGS: ResolvedTrajectorySettings = {
  targetMaxTokens: 15_250,
  summaryTargetTokens: 750,
  protectFirst: { system: true, user: true, assistant: true, tool: true },
  protectLastN: 4,
  strategy: 'single-pass',
  summaryStyle: 'hermes',
  onSummaryFailure: 'extractive',
  summaryNotice: undefined,
  policy: {},
  redact: {},
};

const SETTINGS_SOURCE = { noun: 'trajectory setting', hint: 'see condense trajectories --help' } as const;

const trajectorySettingsSchema = z
  .strictObject({
    targetMaxTokens: integerAtLeast(1),
    summaryTargetTokens: integerAtLeast(1),
    protectFirst: z.strictObject({ system: flag(), user: flag(), assistant: flag(), tool: flag() }).partial(),
    protectLastN: integerAtLeast(0),
    protectLastTurns: integerAtLeast(0),
    strategy: oneOf(['single-pass', 'escalate']),
    summaryStyle: oneOf(['hermes', 'condense']),
    onSummaryFailure: oneOf(['extractive', 'marker']),
    summaryNotice: z.union([z.boolean(), z.string()], { error: 'true, false or the text of the notice' }),
    policy: unchecked<TrajectoryPolicy>(),
    redact: unchecked<RedactOptions | false>(),
  })
  .partial();

// Every key of TrajectorySettings, and no other, is in the schema (checked by the compiler).
true satisfies SameKeys<TrajectorySettings, z.input<typeof trajectorySettingsSchema>>;

/**
 * Fills in defaults and checks values. Throws `INVALID_OPTIONS` naming the setting that is wrong, or unknown
 * (with the known ones).
 */
export function resolveTrajectorySettings(settings: TrajectorySettings = {}): ResolvedTrajectorySettings {
  const defaults = DEFAULT_TRAJECTORY_SETTINGS;
  const parsed = parseOptions(trajectorySettingsSchema, settings, SETTINGS_SOURCE);
  const targetMaxTokens = parsed.targetMaxTokens ?? defaults.targetMaxTokens;
  const summaryTargetTokens = parsed.summaryTargetTokens ?? defaults.summaryTargetTokens;
  if (summaryTargetTokens >= targetMaxTokens) {
    throw invalidOption(
      `summaryTargetTokens (${summaryTargetTokens}) must be smaller than targetMaxTokens (${targetMaxTokens})`,
      SETTINGS_SOURCE.hint,
    );
  }
  const notice = parsed.summaryNotice;
  return {
    targetMaxTokens,
    summaryTargetTokens,
    protectFirst: {
      system: parsed.protectFirst?.system ?? defaults.protectFirst.system,
      user: parsed.protectFirst?.user ?? defaults.protectFirst.user,
      assistant: parsed.protectFirst?.assistant ?? defaults.protectFirst.assistant,
      tool: parsed.protectFirst?.tool ?? defaults.protectFirst.tool,
    },
    protectLastN: alias(parsed, 'protectLastN', 'protectLastTurns') ?? defaults.protectLastN,
    strategy: parsed.strategy ?? defaults.strategy,
    summaryStyle: parsed.summaryStyle ?? defaults.summaryStyle,
    onSummaryFailure: parsed.onSummaryFailure ?? defaults.onSummaryFailure,
    summaryNotice: notice === true ? DEFAULT_SUMMARY_NOTICE : notice === false ? undefined : notice,
    policy: parsed.policy ?? defaults.policy,
    redact: parsed.redact ?? defaults.redact,
  };
}
