import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { EntryResult } from '../trajectory-job.js';
import { type ChunkJobData, parseStoredResults, resultKey } from './chunk-job.js';
import { type Chunk, createChunk } from './chunk-state.js';

/** What {@link createChunkChecker} works with: the dispatcher's queue, client and bookkeeping. */
export interface ChunkCheckerOptions {
  readonly queue: Queue;
  readonly redis: Redis;
  readonly queueName: string;
  /** Chunks waiting for a result, by job id; the checker removes the ones it settles and adds parts. */
  readonly outstanding: Map<string, Chunk>;
  readonly attempts: number;
  readonly retentionSeconds: number;
  readonly jobData: (chunk: Chunk) => ChunkJobData;
  /** A part was created: its result key must be forgotten with its file's. */
  readonly track: (chunk: Chunk) => void;
  /** A chunk's results were already stored before this submitter added its job (an earlier or a second run). */
  readonly found: (chunk: Chunk) => void;
  /** A top-level chunk is finished (its room on the queue is free again). */
  readonly done: () => void;
  readonly notice: (message: string) => void;
  /** Redis could not be reached; the check is retried on the next sweep. */
  readonly problem: (error: Error) => void;
}

/** Looks at chunks and moves them on; see {@link createChunkChecker}. */
export interface ChunkChecker {
  /** Collects the chunk's result if it is stored, adds its job if it has none, splits or gives up a failed one. */
  check(chunk: Chunk): Promise<void>;
  /** Drops the stored results (and kept failed jobs) of these job ids once their file is written. */
  forget(ids: readonly string[]): Promise<void>;
}

/**
 * The submitter's view of one job at a time. The stored result is the truth (a worker writes it before its job
 * completes), so it is read first; then the job: none (never added, or lost with a restarted Redis) → add it;
 * failed after every attempt → split into one-entry jobs, or, for one entry, keep the entry as it was with the
 * reason; completed without a stored result (lost, or expired) → run it again. Never throws: a Redis problem is
 * reported and the chunk is looked at again on the next sweep.
 */
export function createChunkChecker(options: ChunkCheckerOptions): ChunkChecker {
  const { queue, redis, outstanding } = options;
  const split = new Set<string>();

  const finish = (chunk: Chunk, error?: unknown) => finishChunk(options, chunk, error);
  const collect = (chunk: Chunk, results: readonly EntryResult[]) => collectChunk(options, chunk, results);

  const collectStored = async (chunk: Chunk): Promise<boolean> => {
    const key = resultKey(options.queueName, chunk.id);
    const text = await redis.get(key);
    if (text === null) return false;
    const results = parseStoredResults(text, chunk.count);
    if (results === undefined) {
      await redis.del(key);
      return false;
    }
    if (!chunk.enqueued) options.found(chunk);
    await collect(chunk, results);
    // The job's input is not needed any more; the result stays until the file is written (for a restart).
    await queue.remove(chunk.id).catch(() => undefined);
    return true;
  };

  const enqueue = (chunk: Chunk) => addJob(options, chunk);

  const giveUp = async (chunk: Chunk, job: Job) => {
    if (chunk.count === 1) {
      const entry = chunk.file.entries[chunk.start];
      await collect(chunk, [givenUp(entry?.text ?? '', job)]);
      return;
    }
    chunk.status = 'split';
    outstanding.delete(chunk.id);
    split.add(chunk.id);
    options.notice(splitNotice(chunk, job));
    const parts = Array.from({ length: chunk.count }, (_, offset) =>
      createChunk(`${chunk.id}.${offset}`, chunk.file, chunk.start + offset, 1, chunk.settle, chunk),
    );
    Promise.all(parts.map((part) => part.finished)).then(
      () => finish(chunk),
      (error: unknown) => finish(chunk, error),
    );
    for (const part of parts) {
      options.track(part);
      outstanding.set(part.id, part);
    }
    for (const part of parts) await check(part);
  };

  const inspect = async (chunk: Chunk) => {
    if (await collectStored(chunk)) return;
    const job = await queue.getJob(chunk.id);
    if (job === undefined) {
      if (chunk.enqueued) {
        options.notice(
          `queue: job ${chunk.id} vanished (Redis restarted without its data?); adding it again`,
        );
      }
      await enqueue(chunk);
      return;
    }
    const state = await job.getState();
    if (state === 'failed') await giveUp(chunk, job);
    else if (state !== 'completed') chunk.quietChecks++;
    else if (!(await collectStored(chunk))) {
      options.notice(`queue: the results of job ${chunk.id} were lost (Redis restarted?); running it again`);
      await job.remove();
      await enqueue(chunk);
    }
  };

  const check = async (chunk: Chunk): Promise<void> => {
    if (chunk.status !== 'queued') return;
    if (chunk.checking) {
      chunk.again = true;
      return;
    }
    chunk.checking = true;
    try {
      await inspect(chunk);
    } catch (error) {
      options.problem(error as Error);
    } finally {
      chunk.checking = false;
      chunk.lastChecked = Date.now();
    }
    if (chunk.again) {
      chunk.again = false;
      await check(chunk);
    }
  };

  return {
    check,
    async forget(ids) {
      for (let at = 0; at < ids.length; at += 500) {
        const batch = ids.slice(at, at + 500);
        await redis.del(...batch.map((id) => resultKey(options.queueName, id)));
      }
      for (const id of ids) {
        if (!split.delete(id)) continue;
        await queue.remove(id).catch(() => undefined);
      }
    },
  };
}

async function addJob(options: ChunkCheckerOptions, chunk: Chunk): Promise<void> {
  chunk.enqueued = true;
  await options.queue.add('entries', options.jobData(chunk), {
    jobId: chunk.id,
    attempts: options.attempts,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: options.retentionSeconds },
    removeOnFail: { age: options.retentionSeconds },
  });
}

function splitNotice(chunk: Chunk, job: Job): string {
  const lines = chunk.file.entries.slice(chunk.start, chunk.start + chunk.count).map((entry) => entry.line);
  return `queue: job ${chunk.id} (${chunk.file.file.input}, entries at ${lines[0]}–${lines.at(-1)}) failed after ${job.attemptsMade} attempt(s) (${job.failedReason}); retrying its ${chunk.count} entries one by one`;
}

function finishChunk(options: ChunkCheckerOptions, chunk: Chunk, error?: unknown): void {
  if (error === undefined) chunk.resolve();
  else chunk.reject(error);
  if (chunk.parent === undefined) options.done();
}

/** Settles every entry of a chunk (once: it leaves `outstanding` first); a failed settle fails the chunk. */
async function collectChunk(
  options: ChunkCheckerOptions,
  chunk: Chunk,
  results: readonly EntryResult[],
): Promise<void> {
  chunk.status = 'collected';
  options.outstanding.delete(chunk.id);
  try {
    for (const [offset, result] of results.entries()) await chunk.settle(chunk.start + offset, result);
    finishChunk(options, chunk);
  } catch (error) {
    finishChunk(options, chunk, error);
  }
}

/** A given-up entry's result: its original text, and why. */
function givenUp(text: string, job: Job): EntryResult {
  return {
    outcome: 'failed',
    text,
    message: `queue job failed after ${job.attemptsMade} attempt(s), the entry was kept as it was: ${job.failedReason ?? 'unknown failure'}`,
  };
}
