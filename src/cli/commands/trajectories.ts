import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Option } from 'commander';
import type { TrajectoryRunReport } from '../../batch/batch-events.js';
import { type RunTrajectoriesOptions, runTrajectories } from '../../batch/run-trajectories.js';
import type { JobModel, TrajectoryJobConfig } from '../../batch/trajectory-job.js';
import { CondenseError } from '../../errors/condense-error.js';
import { checkTextInput } from '../../io/check-text.js';
import { readTextFile } from '../../io/read-text.js';
import type { FormatName } from '../../model/format.js';
import { parseModelSpec } from '../../summarizer/model/create-language-model.js';
import { parseTrajectoryConfig, type TrajectoryConfig } from '../../trajectory/trajectory-config.js';
import type {
  OverLimitStrategy,
  SummaryStyle,
  TrajectorySettings,
} from '../../trajectory/trajectory-settings.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import {
  formatOption,
  jsonOption,
  parseNonNegativeInteger,
  parsePositiveInteger,
  parsePositiveNumber,
} from '../options.js';
import type { CommandRegistrar, CommandState } from '../program.js';
import { checkTokenizerName } from '../tokenizer.js';
import { addQueueOptions, type QueueFlags, queueDispatcherOf } from './trajectories-queue.js';
import { createProgressRenderer, summaryLines } from './trajectories-render.js';

interface TrajectoriesFlags extends QueueFlags {
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

/** The environment variables a provider's key is read from, in order (as `--model` does for `compact`). */
const KEY_VARIABLES = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  'openai-compatible': ['CONDENSE_API_KEY', 'OPENROUTER_API_KEY', 'OPENAI_API_KEY'],
} as const;

function parsePercent(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 100) {
    throw new CondenseError({
      code: 'USAGE',
      message: `--sample-percent must be in (0, 100], got "${value}"`,
    });
  }
  return parsed;
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
  const variables: readonly string[] =
    fromConfig?.apiKeyEnv === undefined ? KEY_VARIABLES[provider] : [fromConfig.apiKeyEnv];
  const apiKey = variables
    .map((name) => context.env[name])
    .find((value) => value !== undefined && value !== '');
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
    ...(flags.protectLast === undefined ? {} : { protectLastTurns: flags.protectLast }),
    ...(flags.strategy === undefined ? {} : { strategy: flags.strategy }),
    ...(flags.style === undefined ? {} : { summaryStyle: flags.style }),
  };
}

function defaultWorkers(): number {
  const cores = availableParallelism();
  return cores > 1 ? Math.min(cores, 4) : 0;
}

/** `condense trajectories <input…>`: compress a dataset of finished trajectories to a token budget. */
export const registerTrajectories: CommandRegistrar = (program, context, state) => {
  const command = program
    .command('trajectories')
    .description(
      "compress finished agent trajectories (JSONL or Parquet datasets: ShareGPT as Hermes writes it, OpenAI messages…) to a token budget, Hermes' way: protected head and tail, the middle summarized; one output file per input, plus compression_metrics.json",
    )
    .argument('<input...>', 'JSONL/JSON/Parquet files, or directories of *.jsonl and *.parquet files')
    .option('-o, --out <dir>', 'output directory (default: <input>_compressed)')
    .option('--config <file>', 'YAML configuration and domain policy (see examples/threat-hunt-policy.yaml)')
    .option(
      '--target <tokens>',
      'token budget per trajectory (default 15250)',
      parsePositiveInteger('--target'),
    )
    .option(
      '--summary-target <tokens>',
      'length of the summary turn (default 750)',
      parsePositiveInteger('--summary-target'),
    )
    .option(
      '--protect-last <turns>',
      'last turns kept verbatim (default 4)',
      parseNonNegativeInteger('--protect-last'),
    )
    .option(
      '--tokenizer <name>',
      'o200k_base (default), cl100k_base, a model name, a tokenizer.json path, or rough',
    )
    .option(
      '--model <spec>',
      'summarize with a model: openai:<id>, anthropic:<id>, openai-compatible:<id> (default: extractive)',
    )
    .option('--base-url <url>', 'API base URL for openai-compatible models')
    .option(
      '--concurrency <n>',
      'trajectories in flight at once, bounding model calls (default 50; with --queue: entries on the queue, default 1000)',
      parsePositiveInteger('--concurrency'),
    )
    .option(
      '--timeout <seconds>',
      'seconds allowed per trajectory, decimals allowed (default 300)',
      parsePositiveNumber('--timeout'),
    )
    .option(
      '--workers <n>',
      'worker threads for the CPU work, 0 for none (default: cores, at most 4)',
      parseNonNegativeInteger('--workers'),
    )
    .addOption(
      new Option(
        '--strategy <name>',
        'when one pass is not enough: report it, or digest tool outputs and retry',
      ).choices(['single-pass', 'escalate']),
    )
    .addOption(
      new Option(
        '--style <name>',
        'summary marker: hermes ([CONTEXT SUMMARY]:) or condense (checkpoint header)',
      ).choices(['hermes', 'condense']),
    )
    .addOption(formatOption())
    .option('--sample-percent <p>', 'keep a seeded sample of this share of each file (1-100)', parsePercent)
    .option('--seed <seed>', 'seed of the sample (default 42)')
    .option('--no-resume', 'redo files an earlier run already finished')
    .option('--no-metrics', 'do not add compression_metrics to compressed entries')
    .option('--dry-run', 'count and plan only: no model call, nothing written')
    .addOption(jsonOption('print the aggregate metrics as JSON on standard output'));
  addQueueOptions(command).action((inputs: string[], flags: TrajectoriesFlags) =>
    runCommand(context, state, inputs, flags),
  );
};

async function runCommand(
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
