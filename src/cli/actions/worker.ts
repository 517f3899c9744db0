import { hostname } from 'node:os';
import type { QueueModel } from '../../batch/queue/chunk-job.js';
import type { QueueWorkerEvent } from '../../batch/queue/queue-worker.js';
import { parseModelSpec } from '../../summarizer/model/model-spec.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { lookUpApiKey } from '../model-keys.js';

/** The flags of the command. */
export interface WorkerFlags {
  readonly queue: string;
  readonly queueName: string;
  readonly name?: string;
  readonly concurrency: number;
  readonly workers: number;
  readonly rateLimit?: { max: number; durationMs: number };
  readonly lockSeconds: number;
  readonly quiet?: boolean;
}

/** What `condense worker` does once its arguments are parsed (loaded only when the command runs). */
export async function runWorker(context: CliContext, state: CommandState, flags: WorkerFlags): Promise<void> {
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
}

function apiKeyFor(context: CliContext, model: QueueModel): string | undefined {
  return lookUpApiKey(context.env, parseModelSpec(model.spec).provider, model.apiKeyEnv).apiKey;
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
