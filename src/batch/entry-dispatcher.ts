import type { EntryExecutor } from './entry-executor.js';
import type { PreparedFile } from './prepare-file.js';
import { createLimiter } from './progress.js';
import type { EntryResult, TrajectoryJobConfig } from './trajectory-job.js';

/** Receives the result of entry `index` (0-based, in the prepared file); may reject (a failed write). */
export type SettleEntry = (index: number, result: EntryResult) => Promise<void>;

/** A file whose entries have all been handed over; `done` settles once every result has been settled. */
export interface DispatchedFile {
  readonly done: Promise<void>;
}

/**
 * Where the entries of a run are processed: on this thread or worker threads ({@link createLocalDispatcher}),
 * or on a Redis queue served by `condense worker` processes (`createQueueDispatcher`). The runner keeps
 * everything else — reading, resume, ordering, writing, metrics — so every dispatcher writes the same files.
 */
export interface EntryDispatcher {
  /**
   * Hands over every entry of `file` and resolves once the last one is handed over (waiting for room, so that
   * at most the dispatcher's own bound of entries is in flight across files). Each result goes to `settle`
   * exactly once, in any order; `done` rejects when a `settle` call rejected.
   */
  dispatch(file: PreparedFile, settle: SettleEntry): Promise<DispatchedFile>;
  /** Called once the file's output and resume record are on disk: what was kept for a restart may go. */
  written?(file: PreparedFile): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs entries through `executor` (this thread or worker threads), at most `concurrency` in flight across
 * files; job ids are unique within the dispatcher.
 */
export function createLocalDispatcher(executor: EntryExecutor, concurrency: number): EntryDispatcher {
  const limiter = createLimiter(concurrency);
  let nextId = 0;
  return {
    async dispatch(prepared, settle) {
      const jobs: Promise<void>[] = [];
      for (const [index, entry] of prepared.entries.entries()) {
        await limiter.acquire();
        const job = { id: nextId++, format: prepared.format, text: entry.text, line: entry.line };
        const done = executor.run(job).then(async (result) => {
          limiter.release();
          await settle(index, result);
        });
        // A failed write rejects `done` while later entries are still being started: mark it handled now, the
        // file's Promise.all below still sees the failure.
        done.catch(() => undefined);
        jobs.push(done);
      }
      return { done: Promise.all(jobs).then(() => undefined) };
    },
    close: () => executor.close(),
  };
}

/** What the runner tells a dispatcher factory about the run. */
export interface DispatcherSetup {
  readonly config: TrajectoryJobConfig;
  /** Time allowed per entry, in milliseconds. */
  readonly timeoutMs: number;
  /** Hash of every setting that shapes the output (see `settingsFingerprint`). */
  readonly fingerprint: string;
  /** Tells the user something about where the work runs (emitted as a `notice` event). */
  readonly notice: (message: string) => void;
}
