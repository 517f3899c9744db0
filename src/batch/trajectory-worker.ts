import { parentPort, workerData } from 'node:worker_threads';
import { isCondenseError } from '../errors/condense-error.js';
import { processEntry } from './process-entry.js';
import type { EntryJob, TrajectoryJobConfig, TrajectoryRuntime } from './trajectory-job.js';
import { createTrajectoryRuntime } from './trajectory-runtime.js';

/** Messages the pool sends to a worker. */
export type ToWorker =
  | { readonly type: 'job'; readonly job: EntryJob }
  | { readonly type: 'cancel'; readonly id: number };

/** Messages a worker sends back. */
export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'init-error'; readonly message: string; readonly code?: string }
  | {
      readonly type: 'result';
      readonly id: number;
      readonly result: Awaited<ReturnType<typeof processEntry>>;
    };

const port = parentPort;
if (port !== null) {
  const config = (workerData as { config: TrajectoryJobConfig }).config;
  const controllers = new Map<number, AbortController>();
  let runtime: TrajectoryRuntime | undefined;
  try {
    runtime = await createTrajectoryRuntime(config);
    port.postMessage({ type: 'ready' } satisfies FromWorker);
  } catch (error) {
    const code = isCondenseError(error) ? { code: error.code } : {};
    port.postMessage({ type: 'init-error', message: (error as Error).message, ...code } satisfies FromWorker);
  }
  const ready = runtime;
  if (ready !== undefined) {
    port.on('message', (message: ToWorker) => {
      if (message.type === 'cancel') {
        controllers.get(message.id)?.abort();
        return;
      }
      const controller = new AbortController();
      controllers.set(message.job.id, controller);
      void processEntry(message.job, ready, config, controller.signal).then((result) => {
        controllers.delete(message.job.id);
        port.postMessage({ type: 'result', id: message.job.id, result } satisfies FromWorker);
      });
    });
  }
}
