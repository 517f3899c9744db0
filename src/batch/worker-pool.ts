import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../errors/codes.js';
import { CondenseError } from '../errors/condense-error.js';
import { type EntryExecutor, SYSTEM_TIMERS, type Timers, timedOut } from './entry-executor.js';
import type { EntryJob, EntryResult, TrajectoryJobConfig } from './trajectory-job.js';
import type { FromWorker, ToWorker } from './trajectory-worker.js';

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** Number of worker threads (at least 1). */
  readonly size: number;
  readonly config: TrajectoryJobConfig;
  readonly timeoutMs: number;
  /** The built worker script. @default dist/batch/trajectory-worker.js next to this module */
  readonly script?: URL;
  readonly timers?: Timers;
}

interface Pending {
  readonly job: EntryJob;
  readonly resolve: (result: EntryResult) => void;
  readonly timer: unknown;
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  alive: boolean;
}

/**
 * The worker script: the compiled `trajectory-worker.js` beside this module, or — when this module runs from
 * TypeScript sources (tests, `tsx`) — the one in `dist/`, since worker threads run built JavaScript only.
 */
export function defaultWorkerScript(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('../../dist/batch/trajectory-worker.js', here)
    : new URL('./trajectory-worker.js', here);
}

function startWorker(script: URL, config: TrajectoryJobConfig): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { config } });
    const fail = (error: Error) => {
      void worker.terminate();
      reject(error);
    };
    worker.once('error', fail);
    worker.once('message', (message: FromWorker) => {
      worker.off('error', fail);
      if (message.type === 'ready') resolve(worker);
      else if (message.type === 'init-error') {
        void worker.terminate();
        reject(
          new CondenseError({
            code: (message.code as ErrorCode | undefined) ?? 'INVALID_OPTIONS',
            message: message.message,
          }),
        );
      } else fail(new Error(`worker sent ${message.type} before it was ready`));
    });
  });
}

/**
 * Spreads entries over worker threads, each holding its own counter and summarizer chain. A job goes to the
 * least busy worker and runs under its own timeout, kept here: when it expires the entry resolves `timed-out`
 * at once and the worker is told to abort it. A worker that dies resolves its jobs as `failed`.
 */
export async function createWorkerPool(options: WorkerPoolOptions): Promise<EntryExecutor> {
  const script = options.script ?? defaultWorkerScript();
  const timers = options.timers ?? SYSTEM_TIMERS;
  const started = await Promise.allSettled(
    Array.from({ length: Math.max(1, options.size) }, () => startWorker(script, options.config)),
  );
  const workers = started.flatMap((item) => (item.status === 'fulfilled' ? [item.value] : []));
  const failure = started.find((item) => item.status === 'rejected');
  if (failure !== undefined) {
    // One worker that cannot start (a missing tokenizer file…) fails them all: stop the others, or they keep
    // the process alive.
    await Promise.all(workers.map((worker) => worker.terminate()));
    throw failure.reason;
  }
  const slots: Slot[] = workers.map((worker) => ({ worker, pending: new Map(), alive: true }));
  for (const slot of slots) {
    slot.worker.on('message', (message: FromWorker) => {
      if (message.type !== 'result') return;
      const pending = slot.pending.get(message.id);
      if (pending === undefined) return;
      slot.pending.delete(message.id);
      timers.clearTimeout(pending.timer);
      pending.resolve(message.result);
    });
    const die = (reason: string) => {
      slot.alive = false;
      for (const pending of slot.pending.values()) {
        timers.clearTimeout(pending.timer);
        pending.resolve({
          outcome: 'failed',
          text: pending.job.text,
          message: `worker thread stopped: ${reason}`,
        });
      }
      slot.pending.clear();
    };
    slot.worker.on('error', (error) => die(error.message));
    slot.worker.on('exit', (code) => die(`exit code ${code}`));
  }
  let closing = false;
  return {
    run(job) {
      const live = slots.filter((slot) => slot.alive);
      if (live.length === 0 || closing) {
        return Promise.resolve({ outcome: 'failed', text: job.text, message: 'no worker thread is running' });
      }
      const slot = live.reduce((best, next) => (next.pending.size < best.pending.size ? next : best));
      return new Promise((resolve) => {
        const timer = timers.setTimeout(() => {
          if (!slot.pending.delete(job.id)) return;
          slot.worker.postMessage({ type: 'cancel', id: job.id } satisfies ToWorker);
          resolve(timedOut(job, options.timeoutMs));
        }, options.timeoutMs);
        slot.pending.set(job.id, { job, resolve, timer });
        slot.worker.postMessage({ type: 'job', job } satisfies ToWorker);
      });
    },
    async close() {
      closing = true;
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
