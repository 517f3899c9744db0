import { DEFAULT_QUEUE_NAME } from '../../batch/queue/redis-url.js';
import { CondenseError } from '../../errors/condense-error.js';
import type { WorkerFlags } from '../actions/worker.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { parsePositiveInteger } from '../options.js';

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
    .action(async (flags: WorkerFlags) =>
      (await import('../actions/worker.js')).runWorker(context, state, flags),
    );
};

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
