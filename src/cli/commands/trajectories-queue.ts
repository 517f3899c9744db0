import type { Command } from 'commander';
import type { EntryDispatcher } from '../../batch/entry-dispatcher.js';
import type { QueueDispatcherOptions } from '../../batch/queue/queue-dispatcher.js';
import { checkQueueName, DEFAULT_QUEUE_NAME, parseRedisUrl } from '../../batch/queue/redis-url.js';
import type { RunTrajectoriesOptions } from '../../batch/run-trajectories.js';
import type { TrajectoryConfig } from '../../trajectory/trajectory-config.js';
import { parsePositiveInteger } from '../options.js';

/** The queue flags of `condense trajectories`. */
export interface QueueFlags {
  readonly queue?: string;
  readonly queueName?: string;
  readonly chunkSize?: number;
  readonly attempts?: number;
}

/** Adds `--queue` and its companions to `trajectories`. */
export function addQueueOptions(command: Command): Command {
  return command
    .option(
      '--queue <url>',
      'run on a Redis queue served by `condense worker` processes (redis://host:port[/db]) instead of here',
    )
    .option('--queue-name <name>', `BullMQ queue the workers listen on (default ${DEFAULT_QUEUE_NAME})`)
    .option(
      '--chunk-size <n>',
      'entries per queue job (default 20, or 1 with --model)',
      parsePositiveInteger('--chunk-size'),
    )
    .option(
      '--attempts <n>',
      'tries of a queue job before its entries are retried one by one, then kept as failed (default 3)',
      parsePositiveInteger('--attempts'),
    );
}

/**
 * The runner's dispatcher for `--queue`, or undefined for a local run. `--concurrency` then bounds the entries
 * on the queue and not yet collected (default 1,000); the model's key is not sent: each worker reads its own,
 * from the variable the configuration names (`apiKeyEnv`) or the provider's usual one.
 */
export function queueDispatcherOf(
  flags: QueueFlags & { readonly concurrency?: number },
  config: TrajectoryConfig | undefined,
): RunTrajectoriesOptions['dispatcher'] {
  if (flags.queue === undefined) return undefined;
  parseRedisUrl(flags.queue);
  const options: QueueDispatcherOptions = {
    url: flags.queue,
    queueName: checkQueueName(flags.queueName ?? DEFAULT_QUEUE_NAME),
    ...(flags.chunkSize === undefined ? {} : { chunkSize: flags.chunkSize }),
    ...(flags.attempts === undefined ? {} : { attempts: flags.attempts }),
    ...(flags.concurrency === undefined ? {} : { inFlight: flags.concurrency }),
  };
  const apiKeyEnv = config?.model?.apiKeyEnv;
  return async (setup): Promise<EntryDispatcher> => {
    // Loaded here: BullMQ and ioredis add to every command's start-up time otherwise.
    const { createQueueDispatcher } = await import('../../batch/queue/queue-dispatcher.js');
    const model = setup.config.model;
    if (apiKeyEnv === undefined || model === undefined) return createQueueDispatcher(options)(setup);
    const { apiKey: _secret, ...rest } = model;
    return createQueueDispatcher({ ...options, model: { ...rest, apiKeyEnv } })(setup);
  };
}
