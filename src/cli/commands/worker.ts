import { hostname } from 'node:os';
import type { QueueModel } from '../../batch/queue/chunk-job.js';
import type { QueueWorkerEvent } from '../../batch/queue/queue-worker.js';
import { DEFAULT_QUEUE_NAME } from '../../batch/queue/redis-url.js';
import { CondenseError } from '../../errors/condense-error.js';
import { parseModelSpec } from '../../summarizer/model/create-language-model.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { KEY_VARIABLES } from '../models.js';
import { parsePositiveInteger } from '../options.js';
import type { CommandRegistrar } from '../program.js';

interface WorkerFlags {
  readonly queue: string;
  readonly queueName: string;
  readonly name?: string;
  readonly concurrency: number;
  readonly workers: number;
  readonly rateLimit?: { max: number; durationMs: number };
  readonly lockSeconds: number;
  readonly quiet?: boolean;
}

/** `condense worker --queue URL`: serve `condense trajectories --queue` runs until stopped. */
export const registerWorker: CommandRegistrar = (program, context, state) => {
  program
    .command('worker')
    .description(
      'process the trajectory jobs that `condense trajectories --queue` puts on a Redis queue, with the settings each run sends; start any number, on any machine, until stopped (Ctrl-C or SIGTERM lets running jobs finish)',
    )
    .requiredOption('--queue <url>', 'Redis URL: redis://[user:password@]host:port[/db], rediss:// for TLS')
    .option('--queue-name <name>', 'BullMQ queue to serve', DEFAULT_QUEUE_NAME)
    .option('--name <name>', 'name shown on the jobs it processes (default: host and process id)')
    .option(
      '--concurrency <n>',
      'entries processed at once, across jobs (bounds this worker’s model calls)',
      parsePositiveInteger('--concurrency'),
      50,
    )
    .option('--workers <n>', 'worker threads for the CPU work, 0 for none', parseCount, 0)
    .option(
      '--rate-limit <max/seconds>',
      'at most <max> jobs start per <seconds> across every worker of the queue (give each worker the same value)',
      parseRateLimit,
    )
    .option(
      '--lock-seconds <s>',
      'how long a silent worker keeps its jobs before another takes them over',
      parsePositiveInteger('--lock-seconds'),
      30,
    )
    .option('--quiet', 'print only problems, not one line per job')
    .action(async (flags: WorkerFlags) => {
      const name = flags.name ?? `${hostname()}:${context.pid ?? 0}`;
      // Loaded here: BullMQ and ioredis add to every command's start-up time otherwise.
      const { startQueueWorker } = await import('../../batch/queue/queue-worker.js');
      const worker = await startQueueWorker({
        url: flags.queue,
        queueName: flags.queueName,
        name,
        concurrency: flags.concurrency,
        threads: flags.workers,
        lockMs: flags.lockSeconds * 1000,
        ...(flags.rateLimit === undefined ? {} : { rateLimit: flags.rateLimit }),
        apiKeyFor: (model) => apiKeyFor(context, model),
        onEvent: (event) => render(context, event, flags.quiet === true),
      });
      await context.untilStopped?.();
      context.stderr('condense: worker stopping: finishing the running jobs\n');
      await worker.close();
      context.stderr(`condense: worker stopped after ${worker.completed} job(s)\n`);
      state.exitCode = EXIT.ok;
    });
};

function apiKeyFor(context: CliContext, model: QueueModel): string | undefined {
  const variables: readonly string[] =
    model.apiKeyEnv === undefined ? KEY_VARIABLES[parseModelSpec(model.spec).provider] : [model.apiKeyEnv];
  return variables.map((name) => context.env[name]).find((value) => value !== undefined && value !== '');
}

function render(context: CliContext, event: QueueWorkerEvent, quiet: boolean): void {
  switch (event.type) {
    case 'ready':
      context.stderr(`condense: worker ${event.name} serving ${event.queue}\n`);
      return;
    case 'job-done':
      if (!quiet) {
        const failed = event.failed === 0 ? '' : `, ${event.failed} failed`;
        context.stderr(`condense: job ${event.id}: ${event.entries} entries${failed} in ${event.ms} ms\n`);
      }
      return;
    case 'job-failed':
      context.stderr(`condense: job ${event.id} failed (attempt ${event.attempt}): ${event.message}\n`);
      return;
    case 'problem':
      context.stderr(`condense: queue: ${event.message}\n`);
      return;
  }
}

function parseCount(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new CondenseError({
      code: 'USAGE',
      message: `--workers must be a non-negative integer, got "${value}"`,
    });
  }
  return parsed;
}

function parseRateLimit(value: string): { max: number; durationMs: number } {
  const match = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value.trim());
  const max = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (match === null || max < 1 || seconds <= 0) {
    throw new CondenseError({
      code: 'USAGE',
      message: `--rate-limit must be <max>/<seconds>, e.g. 600/60, got "${value}"`,
    });
  }
  return { max, durationMs: Math.round(seconds * 1000) };
}
