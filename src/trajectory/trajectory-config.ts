import * as z from 'zod';
import { CondenseError } from '../errors/condense-error.js';
import { flag, integerAtLeast, numberIn, oneOf, text } from '../errors/option-fields.js';
import { parseOptions } from '../errors/parse-options.js';
import { parseYamlText } from '../errors/yaml-text.js';
import { defined } from '../model/defined.js';
import type { Role } from '../model/role.js';
import type { AnchorRule, TrajectoryPolicy } from './trajectory-policy.js';
import type { TrajectorySettings } from './trajectory-settings.js';

const count = integerAtLeast(0);
const positive = integerAtLeast(1);

const ROLE_NAMES: Readonly<Record<string, Role>> = {
  system: 'system',
  human: 'user',
  user: 'user',
  gpt: 'assistant',
  assistant: 'assistant',
  tool: 'tool',
};

const anchorSchema = z.strictObject({
  role: oneOf(Object.keys(ROLE_NAMES) as [string, ...string[]]).optional(),
  contains: text().optional(),
  pattern: text().optional(),
  flags: z
    .string({ error: 'letters among i, m, s, u' })
    .regex(/^[imsu]*$/, { error: 'letters among i, m, s, u' })
    .optional(),
  match: oneOf(['first', 'all']).optional(),
});

const configSchema = z.strictObject(
  {
    name: z.string({ error: 'a string' }).optional(),
    description: z.string({ error: 'a string' }).optional(),
    tokenizer: z
      .union([text(), z.strictObject({ name: text() })], {
        error: 'a tokenizer name, or { name: <tokenizer> }',
      })
      .optional(),
    compression: z
      .strictObject({
        target_max_tokens: positive.optional(),
        summary_target_tokens: positive.optional(),
        strategy: oneOf(['single-pass', 'escalate']).optional(),
      })
      .optional(),
    protected_turns: z
      .strictObject({
        first_system: flag().optional(),
        first_human: flag().optional(),
        first_gpt: flag().optional(),
        first_tool: flag().optional(),
        last_n_turns: count.optional(),
      })
      .optional(),
    anchors: z.array(anchorSchema, { error: 'a list of anchor rules' }).optional(),
    annotations: z
      .strictObject({
        field: text().optional(),
        tools: z.record(z.string(), z.string({ error: 'a label (string)' }), {
          error: 'a mapping of tool names to labels',
        }),
      })
      .optional(),
    summarization: z
      .strictObject({
        model: text().optional(),
        base_url: text().optional(),
        api_key_env: text().optional(),
        temperature: numberIn(0, 2).optional(),
        max_retries: count.optional(),
        timeout_seconds: positive.optional(),
        style: oneOf(['hermes', 'condense']).optional(),
        on_failure: oneOf(['extractive', 'marker']).optional(),
        add_summary_notice: flag().optional(),
        summary_notice: z.string({ error: 'a string' }).optional(),
        focus: text().optional(),
      })
      .optional(),
    processing: z
      .strictObject({
        max_concurrent_requests: positive.optional(),
        per_trajectory_timeout: positive.optional(),
        workers: count.optional(),
      })
      .optional(),
    metrics: z.strictObject({ per_trajectory: flag().optional(), output_file: text().optional() }).optional(),
    output: z.strictObject({ suffix: text().optional() }).optional(),
  },
  { error: 'a mapping of sections' },
);

type RawConfig = z.infer<typeof configSchema>;

/** The model that writes summaries, as a configuration file names it. */
export interface ModelConfig {
  readonly spec: string;
  readonly baseUrl?: string;
  /** Environment variable holding the API key. */
  readonly apiKeyEnv?: string;
  readonly temperature?: number;
  readonly maxRetries?: number;
  readonly timeoutSeconds?: number;
}

/** A trajectory compression configuration (Hermes' YAML sections plus a domain policy), validated. */
export interface TrajectoryConfig {
  readonly settings: TrajectorySettings;
  readonly tokenizer?: string;
  readonly model?: ModelConfig;
  readonly processing: {
    readonly concurrency?: number;
    readonly timeoutSeconds?: number;
    readonly workers?: number;
  };
  readonly metrics: { readonly perTrajectory?: boolean; readonly outputFile?: string };
  readonly output: { readonly suffix?: string };
}

const HINT = 'see examples/threat-hunt-policy.yaml for every section and key';

function fail(message: string, file: string | undefined, line?: number): CondenseError {
  return new CondenseError({
    code: 'INVALID_OPTIONS',
    message,
    hint: HINT,
    ...(file === undefined ? {} : { location: { file, ...(line === undefined ? {} : { line }) } }),
  });
}

function toAnchor(raw: z.infer<typeof anchorSchema>): AnchorRule {
  return defined({
    role: raw.role === undefined ? undefined : ROLE_NAMES[raw.role],
    contains: raw.contains,
    pattern: raw.pattern,
    flags: raw.flags,
    match: raw.match,
  }) as AnchorRule;
}

function toPolicy(raw: RawConfig): TrajectoryPolicy | undefined {
  const policy: TrajectoryPolicy = defined({
    name: raw.name,
    anchors: raw.anchors?.map(toAnchor),
    annotations: raw.annotations === undefined ? undefined : defined(raw.annotations),
    focus: raw.summarization?.focus,
  }) as TrajectoryPolicy;
  return Object.keys(policy).length === 0 ? undefined : policy;
}

function toSettings(raw: RawConfig): TrajectorySettings {
  const turns = raw.protected_turns;
  const summarization = raw.summarization;
  const protectFirst =
    turns === undefined
      ? undefined
      : defined({
          system: turns.first_system,
          user: turns.first_human,
          assistant: turns.first_gpt,
          tool: turns.first_tool,
        });
  const notice =
    summarization?.summary_notice !== undefined && summarization.add_summary_notice !== false
      ? summarization.summary_notice
      : summarization?.add_summary_notice;
  return defined({
    targetMaxTokens: raw.compression?.target_max_tokens,
    summaryTargetTokens: raw.compression?.summary_target_tokens,
    strategy: raw.compression?.strategy,
    protectFirst,
    protectLastN: turns?.last_n_turns,
    summaryStyle: summarization?.style,
    onSummaryFailure: summarization?.on_failure,
    summaryNotice: notice,
    policy: toPolicy(raw),
  }) as TrajectorySettings;
}

function toModel(raw: RawConfig): ModelConfig | undefined {
  const summarization = raw.summarization;
  if (summarization?.model === undefined) return undefined;
  return defined({
    spec: summarization.model,
    baseUrl: summarization.base_url,
    apiKeyEnv: summarization.api_key_env,
    temperature: summarization.temperature,
    maxRetries: summarization.max_retries,
    timeoutSeconds: summarization.timeout_seconds,
  }) as ModelConfig;
}

/**
 * Parses a trajectory configuration from YAML text: Hermes' sections (`tokenizer`, `compression`,
 * `protected_turns`, `summarization`, `processing`, `metrics`, `output`) and the domain policy (`anchors`,
 * `annotations`, `summarization.focus`). Unknown keys are errors, so a typo never silently falls back to a
 * default. Throws `INVALID_OPTIONS` naming the file, the line (YAML syntax) or the key path.
 */
export function parseTrajectoryConfig(text: string, file?: string): TrajectoryConfig {
  const parsed = parseYamlText(text);
  if (!parsed.ok) throw fail(`not valid YAML: ${parsed.message}`, file, parsed.line);
  const raw = parseOptions(configSchema, parsed.value ?? {}, {
    noun: 'key',
    subject: 'the configuration',
    hint: HINT,
    lineOf: parsed.lineOf,
    ...(file === undefined ? {} : { location: { file } }),
  });
  const tokenizer = typeof raw.tokenizer === 'string' ? raw.tokenizer : raw.tokenizer?.name;
  const model = toModel(raw);
  return {
    settings: toSettings(raw),
    ...(tokenizer === undefined ? {} : { tokenizer }),
    ...(model === undefined ? {} : { model }),
    processing: defined({
      concurrency: raw.processing?.max_concurrent_requests,
      timeoutSeconds: raw.processing?.per_trajectory_timeout,
      workers: raw.processing?.workers,
    }),
    metrics: defined({
      perTrajectory: raw.metrics?.per_trajectory,
      outputFile: raw.metrics?.output_file,
    }),
    output: defined({ suffix: raw.output?.suffix }),
  };
}
