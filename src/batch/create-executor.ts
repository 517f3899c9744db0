import { createInProcessExecutor, type EntryExecutor, SYSTEM_TIMERS, type Timers } from './entry-executor.js';
import type { TrajectoryJobConfig, TrajectoryRuntime } from './trajectory-job.js';
import { createTrajectoryRuntime } from './trajectory-runtime.js';
import { createWorkerPool } from './worker-pool.js';

/** Options of {@link createEntryExecutor}. */
export interface CreateExecutorOptions {
  readonly config: TrajectoryJobConfig;
  /** Time allowed per entry, in milliseconds. */
  readonly timeoutMs: number;
  /** Worker threads for the CPU work; 0 runs on this thread. @default 0 */
  readonly workers?: number;
  /** Counter and chain to use on this thread (then no threads are started); built from `config` when absent. */
  readonly runtime?: TrajectoryRuntime;
  readonly timers?: Timers;
  /** The built worker script. @default dist/batch/trajectory-worker.js */
  readonly workerScript?: URL;
}

/** An executor for entries: a pool of worker threads, or this thread. */
export async function createEntryExecutor(options: CreateExecutorOptions): Promise<EntryExecutor> {
  const workers = options.workers ?? 0;
  const timers = options.timers ?? SYSTEM_TIMERS;
  if (workers > 0 && options.runtime === undefined) {
    return createWorkerPool({
      size: workers,
      config: options.config,
      timeoutMs: options.timeoutMs,
      timers,
      ...(options.workerScript === undefined ? {} : { script: options.workerScript }),
    });
  }
  const runtime = options.runtime ?? (await createTrajectoryRuntime(options.config));
  return createInProcessExecutor(runtime, options.config, options.timeoutMs, timers);
}
