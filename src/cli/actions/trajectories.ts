import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { TrajectoryRunReport } from '../../batch/batch-events.js';
import { type RunTrajectoriesOptions, runTrajectories } from '../../batch/run-trajectories.js';
import type { JobModel, TrajectoryJobConfig } from '../../batch/trajectory-job.js';
import { CondenseError } from '../../errors/condense-error.js';
import { checkTextInput } from '../../io/check-text.js';
import { readTextFile } from '../../io/read-text.js';
import type { FormatName } from '../../model/format.js';
import { parseModelSpec } from '../../summarizer/model/model-spec.js';
import { parseTrajectoryConfig, type TrajectoryConfig } from '../../trajectory/trajectory-config.js';
import type {
  OverLimitStrategy,
  SummaryStyle,
  TrajectorySettings,
} from '../../trajectory/trajectory-settings.js';
import type { CommandState } from '../command-registrar.js';
import { type QueueFlags, queueDispatcherOf } from '../commands/trajectories-queue.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { lookUpApiKey } from '../model-keys.js';
import { checkTokenizerName } from '../tokenizer.js';
import { createProgressRenderer, summaryLines } from './trajectories-render.js';

/** The flags of the command. */
export interface TrajectoriesFlags extends QueueFlags {
  readonly out?: string;
  readonly config?: string;
  readonly target?: number;
  readonly summaryTarget?: number;
  readonly protectLast?: number;
  readonly tokenizer?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly concurrency?: number;
  readonly timeout?: number;
  readonly workers?: number;
  readonly strategy?: OverLimitStrategy;
  readonly style?: SummaryStyle;
  readonly format?: FormatName;
  readonly samplePercent?: number;
  readonly seed?: string;
  readonly resume: boolean;
  readonly metrics: boolean;
  readonly dryRun?: boolean;
  readonly json?: boolean;
}

function modelOf(
  context: CliContext,
  flags: TrajectoriesFlags,
  config: TrajectoryConfig | undefined,
): JobModel | undefined {
  const spec = flags.model ?? config?.model?.spec;
  if (spec === undefined) return undefined;
  const fromConfig = flags.model === undefined ? config?.model : undefined;
  const baseUrl = flags.baseUrl ?? fromConfig?.baseUrl;
  const provider = parseModelSpec(spec).provider;
  const { variables, apiKey } = lookUpApiKey(context.env, provider, fromConfig?.apiKeyEnv);
  // With --queue the workers call the model, each with the key from its own environment.
  if (
    apiKey === undefined &&
    flags.queue === undefined &&
    provider !== 'openai-compatible' &&
    baseUrl === undefined
  ) {
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: `no API key for ${provider}: ${variables.join(' or ')} is not set`,
      hint: 'set the variable, or drop --model to summarize extractively (no model needed)',
    });
  }
  if (provider === 'openai-compatible' && baseUrl === undefined) {
    throw new CondenseError({ code: 'USAGE', message: 'openai-compatible models need --base-url' });
  }
  return {
    spec,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(apiKey === undefined || flags.queue !== undefined ? {} : { apiKey }),
    ...(fromConfig?.temperature === undefined ? {} : { temperature: fromConfig.temperature }),
    ...(fromConfig?.maxRetries === undefined ? {} : { maxRetries: fromConfig.maxRetries }),
    ...(fromConfig?.timeoutSeconds === undefined ? {} : { timeoutMs: fromConfig.timeoutSeconds * 1000 }),
  };
}

function settingsOf(flags: TrajectoriesFlags, config: TrajectoryConfig | undefined): TrajectorySettings {
  const base = config?.settings ?? {};
  return {
    ...base,
    ...(flags.target === undefined ? {} : { targetMaxTokens: flags.target }),
    ...(flags.summaryTarget === undefined ? {} : { summaryTargetTokens: flags.summaryTarget }),
    ...(flags.protectLast === undefined ? {} : { protectLastN: flags.protectLast }),
    ...(flags.strategy === undefined ? {} : { strategy: flags.strategy }),
    ...(flags.style === undefined ? {} : { summaryStyle: flags.style }),
  };
}

function defaultWorkers(): number {
  const cores = availableParallelism();
  return cores > 1 ? Math.min(cores, 4) : 0;
}

/** What `condense trajectories` does once its arguments are parsed (loaded only when the command runs). */
export async function runTrajectoriesCommand(
  context: CliContext,
  state: CommandState,
  inputs: readonly string[],
  flags: TrajectoriesFlags,
): Promise<void> {
  const config = flags.config === undefined ? undefined : await readConfig(context, flags.config);
  const renderer = createProgressRenderer(context, () => Date.now());
  let report: TrajectoryRunReport;
  try {
    report = await runTrajectories({
      ...runOptionsOf(context, inputs, flags, config),
      onEvent: (event) => renderer.onEvent(event),
    });
  } finally {
    renderer.stop();
  }
  if (flags.json === true) context.stdout(`${JSON.stringify(report.metrics, null, 2)}\n`);
  context.stderr(summaryLines(report));
  const broken = report.files.some((file) => file.status === 'error') || report.counts.failed > 0;
  state.exitCode = broken ? EXIT.failure : EXIT.ok;
}

async function readConfig(context: CliContext, file: string): Promise<TrajectoryConfig> {
  const path = resolve(context.cwd, file);
  const text = await readTextFile(path);
  checkTextInput(text, path, { kind: 'YAML text', hint: 'see examples/threat-hunt-policy.yaml' });
  return parseTrajectoryConfig(text, file);
}

/** The runner's options from the flags, over the configuration file, over the defaults. */
function runOptionsOf(
  context: CliContext,
  inputs: readonly string[],
  flags: TrajectoriesFlags,
  config: TrajectoryConfig | undefined,
): RunTrajectoriesOptions {
  const model = flags.dryRun === true ? undefined : modelOf(context, flags, config);
  const tokenizer = flags.tokenizer ?? config?.tokenizer ?? 'o200k_base';
  checkTokenizerName(
    tokenizer,
    flags.tokenizer === undefined ? `tokenizer: in ${flags.config}` : '--tokenizer',
    true,
  );
  const jobConfig: TrajectoryJobConfig = {
    settings: settingsOf(flags, config),
    tokenizer,
    cwd: context.cwd,
    ...(model === undefined ? {} : { model }),
    perTrajectoryMetrics: flags.metrics && config?.metrics.perTrajectory !== false,
    dryRun: flags.dryRun === true,
  };
  const concurrency = flags.concurrency ?? config?.processing.concurrency;
  const timeoutSeconds = flags.timeout ?? config?.processing.timeoutSeconds;
  const seed =
    flags.seed === undefined ? undefined : /^\d+$/.test(flags.seed) ? Number(flags.seed) : flags.seed;
  const suffix = config?.output.suffix;
  const dispatcher = queueDispatcherOf(flags, config);
  const metricsFile = config?.metrics.outputFile;
  return {
    inputs,
    cwd: context.cwd,
    config: jobConfig,
    workers: flags.workers ?? config?.processing.workers ?? defaultWorkers(),
    resume: flags.resume,
    ...(flags.out === undefined ? {} : { out: flags.out }),
    ...(suffix === undefined ? {} : { suffix }),
    ...(metricsFile === undefined ? {} : { metricsFile }),
    ...(flags.format === undefined ? {} : { format: flags.format }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
    ...(flags.samplePercent === undefined ? {} : { samplePercent: flags.samplePercent }),
    ...(seed === undefined ? {} : { seed }),
    ...(dispatcher === undefined ? {} : { dispatcher }),
  };
}
