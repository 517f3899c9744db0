import { processEntry } from './process-entry.js';
import type { EntryJob, EntryResult, TrajectoryJobConfig, TrajectoryRuntime } from './trajectory-job.js';

/** Runs entry jobs somewhere (this thread, or worker threads). `run` never rejects. */
export interface EntryExecutor {
  run(job: EntryJob): Promise<EntryResult>;
  close(): Promise<void>;
}

/** Timers, injectable so tests and benchmarks control time. */
export interface Timers {
  readonly setTimeout: (callback: () => void, ms: number) => unknown;
  readonly clearTimeout: (handle: unknown) => void;
  /** A monotonic clock in milliseconds. @default performance.now */
  readonly now?: () => number;
}

/** The global timers. */
export const SYSTEM_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/** The result of an entry that ran out of time: its original text, counted as failed. */
export function timedOut(job: EntryJob, timeoutMs: number): EntryResult {
  return {
    outcome: 'timed-out',
    text: job.text,
    message: `no result within ${timeoutMs / 1000} s; the entry was kept as it was`,
  };
}

/**
 * Runs jobs on this thread, each under its own timeout: when it expires the summarizer call is aborted and the
 * entry resolves `timed-out` at once, whatever the work still does. On one thread, CPU-bound work holds the
 * timer back until it yields; a result that arrives after the deadline is therefore still `timed-out` (the
 * entry kept as it was), so `--workers 0` honours the same budget as the worker threads do.
 */
export function createInProcessExecutor(
  runtime: TrajectoryRuntime,
  config: TrajectoryJobConfig,
  timeoutMs: number,
  timers: Timers = SYSTEM_TIMERS,
): EntryExecutor {
  return {
    run(job) {
      const controller = new AbortController();
      const now = timers.now ?? (() => performance.now());
      const started = now();
      return new Promise((resolve) => {
        let settled = false;
        const timer = timers.setTimeout(() => {
          if (settled) return;
          settled = true;
          controller.abort();
          resolve(timedOut(job, timeoutMs));
        }, timeoutMs);
        void processEntry(job, runtime, config, controller.signal).then((result) => {
          if (settled) return;
          settled = true;
          timers.clearTimeout(timer);
          const late = now() - started > timeoutMs && result.outcome !== 'invalid';
          resolve(late ? timedOut(job, timeoutMs) : result);
        });
      });
    },
    close: () => Promise.resolve(),
  };
}
