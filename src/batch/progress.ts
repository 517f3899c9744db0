import type { JobOutcome } from './trajectory-job.js';

/** Where a run stands, computed from the injected clock. */
export interface TrajectoryProgress {
  readonly done: number;
  readonly total: number;
  readonly compressed: number;
  /** Under target, nothing to cut, not a trajectory, or not JSON. */
  readonly skipped: number;
  /** Failed or timed out (kept in their original form). */
  readonly failed: number;
  readonly tokensSaved: number;
  /** Entries per second since the start. */
  readonly rate: number;
  /** Seconds left at the current rate; undefined until the first entry is done. */
  readonly eta: number | undefined;
  readonly elapsedSeconds: number;
}

/** Counts entries as they finish and turns the counts into {@link TrajectoryProgress}. */
export interface ProgressTracker {
  record(outcome: JobOutcome, tokensSaved: number): void;
  snapshot(): TrajectoryProgress;
}

/** A tracker for `total` entries; `now` is the clock in milliseconds, read at creation and on every snapshot. */
export function createProgressTracker(total: number, now: () => number): ProgressTracker {
  const started = now();
  let done = 0;
  let compressed = 0;
  let skipped = 0;
  let failed = 0;
  let tokensSaved = 0;
  return {
    record(outcome, saved) {
      done++;
      tokensSaved += saved;
      switch (outcome) {
        case 'compressed':
          compressed++;
          break;
        case 'failed':
        case 'timed-out':
          failed++;
          break;
        case 'under-target':
        case 'not-compressible':
        case 'passthrough':
        case 'invalid':
          skipped++;
          break;
      }
    },
    snapshot() {
      const elapsedSeconds = Math.max(0, (now() - started) / 1000);
      const rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
      const eta = done === 0 || rate === 0 ? undefined : Math.max(0, total - done) / rate;
      return { done, total, compressed, skipped, failed, tokensSaved, rate, eta, elapsedSeconds };
    },
  };
}

/** A counting semaphore: at most `limit` holders at once, waiters served in order. */
export interface Limiter {
  acquire(): Promise<void>;
  release(): void;
}

/** A {@link Limiter} with `limit` slots. */
export function createLimiter(limit: number): Limiter {
  let free = Math.max(1, limit);
  const waiting: (() => void)[] = [];
  return {
    acquire() {
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release() {
      const next = waiting.shift();
      if (next !== undefined) next();
      else free++;
    },
  };
}
