import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { CondenseError } from '../errors/condense-error.js';
import type { Role } from '../model/role.js';
import type { AnchorRule, TrajectoryPolicy } from './trajectory-policy.js';
import type { TrajectorySettings } from './trajectory-settings.js';

const count = z.number().int().nonnegative();
const positive = z.number().int().positive();

const ROLE_NAMES: Readonly<Record<string, Role>> = {
  system: 'system',
  human: 'user',
  user: 'user',
  gpt: 'assistant',
  assistant: 'assistant',
  tool: 'tool',
};

const anchorSchema = z.strictObject({
  role: z.enum(Object.keys(ROLE_NAMES) as [string, ...string[]]).optional(),
  contains: z.string().min(1).optional(),
  pattern: z.string().min(1).optional(),
  flags: z
    .string()
    .regex(/^[imsu]*$/, 'flags may only hold i, m, s, u')
    .optional(),
  match: z.enum(['first', 'all']).optional(),
});

const configSchema = z.strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
  tokenizer: z.union([z.string().min(1), z.strictObject({ name: z.string().min(1) })]).optional(),
  compression: z
    .strictObject({
      target_max_tokens: positive.optional(),
      summary_target_tokens: positive.optional(),
      strategy: z.enum(['single-pass', 'escalate']).optional(),
    })
    .optional(),
  protected_turns: z
    .strictObject({
      first_system: z.boolean().optional(),
      first_human: z.boolean().optional(),
      first_gpt: z.boolean().optional(),
      first_tool: z.boolean().optional(),
      last_n_turns: count.optional(),
    })
    .optional(),
  anchors: z.array(anchorSchema).optional(),
  annotations: z
    .strictObject({ field: z.string().min(1).optional(), tools: z.record(z.string(), z.string()) })
    .optional(),
  summarization: z
    .strictObject({
      model: z.string().min(1).optional(),
      base_url: z.string().min(1).optional(),
      api_key_env: z.string().min(1).optional(),
      temperature: z.number().min(0).max(2).optional(),
      max_retries: count.optional(),
      timeout_seconds: positive.optional(),
      style: z.enum(['hermes', 'condense']).optional(),
      on_failure: z.enum(['extractive', 'marker']).optional(),
      add_summary_notice: z.boolean().optional(),
      summary_notice: z.string().optional(),
      focus: z.string().min(1).optional(),
    })
    .optional(),
  processing: z
    .strictObject({
      max_concurrent_requests: positive.optional(),
      per_trajectory_timeout: positive.optional(),
      workers: count.optional(),
    })
    .optional(),
  metrics: z
    .strictObject({ per_trajectory: z.boolean().optional(), output_file: z.string().min(1).optional() })
    .optional(),
  output: z.strictObject({ suffix: z.string().min(1).optional() }).optional(),
});

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

function fail(message: string, file: string | undefined, line?: number): CondenseError {
  return new CondenseError({
    code: 'INVALID_OPTIONS',
    message,
    hint: 'see examples/threat-hunt-policy.yaml for every section and key',
    ...(file === undefined ? {} : { location: { file, ...(line === undefined ? {} : { line }) } }),
  });
}

/** The object without its `undefined` members (options are `exactOptionalPropertyTypes`). */
function defined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
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
    protectLastTurns: turns?.last_n_turns,
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
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    if (error instanceof YAMLParseError) {
      throw fail(`not valid YAML: ${error.message.split('\n')[0] ?? ''}`, file, error.linePos?.[0]?.line);
    }
    throw error;
  }
  const parsed = configSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    const keys = issue?.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    throw fail(`${path === '' ? 'configuration' : path}: ${issue?.message ?? 'invalid'}${keys}`, file);
  }
  const raw = parsed.data;
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
