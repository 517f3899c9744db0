import type { SettleEntry } from '../entry-dispatcher.js';
import type { PreparedFile } from '../prepare-file.js';

/**
 * A run of consecutive entries of one file that travels as one queue job, as the submitter tracks it. A chunk
 * whose job failed every attempt is split into one-entry parts (`parent` set on each), and is finished when
 * its last part is.
 */
export interface Chunk {
  /** The BullMQ job id: `<file key>.<chunk>` or, for a part, `<file key>.<chunk>.<offset>`. */
  readonly id: string;
  readonly file: PreparedFile;
  /** Index of the first entry in `file.entries`. */
  readonly start: number;
  readonly count: number;
  readonly settle: SettleEntry;
  readonly parent?: Chunk;
  /** `queued`: waiting for its result; `split`: waiting for its parts; `collected`: settled. */
  status: 'queued' | 'split' | 'collected';
  /** This submitter added its job (so a job found missing later was lost, not never added). */
  enqueued: boolean;
  /** A check is running (one at a time per chunk). */
  checking: boolean;
  /** Something happened to the job during a check (an event): look again right after it. */
  again: boolean;
  /** When it was last looked at, in milliseconds. */
  lastChecked: number;
  /** Looks in a row that found its job still waiting or running (the sweep backs off from such chunks). */
  quietChecks: number;
  /** Settles once every entry of the chunk has been settled. */
  readonly finished: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** A chunk waiting for its result; `parent` for a one-entry part of a split chunk. */
export function createChunk(
  id: string,
  file: PreparedFile,
  start: number,
  count: number,
  settle: SettleEntry,
  parent?: Chunk,
): Chunk {
  let resolve: () => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const finished = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // The file's Promise.all sees a failure; until it is awaited the rejection must not count as unhandled.
  finished.catch(() => undefined);
  return {
    id,
    file,
    start,
    count,
    settle,
    ...(parent === undefined ? {} : { parent }),
    status: 'queued',
    enqueued: false,
    checking: false,
    again: false,
    lastChecked: 0,
    quietChecks: 0,
    finished,
    resolve,
    reject,
  };
}
