import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DispatcherSetup, EntryDispatcher } from '../entry-dispatcher.js';
import type { PreparedFile } from '../prepare-file.js';
import { createLimiter } from '../progress.js';
import { settingsFingerprint, sha256 } from '../resume-state.js';
import { type ChunkChecker, createChunkChecker } from './chunk-checker.js';
import { type ChunkJobData, configKeyOf, encodeJobConfig, type QueueJobConfig } from './chunk-job.js';
import { type Chunk, createChunk } from './chunk-state.js';
import { bullConnection, connectQueueRedis } from './redis-client.js';

/** Options of {@link createQueueDispatcher}. */
export interface QueueDispatcherOptions {
  /** `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  readonly url: string;
  /** The BullMQ queue the workers listen on. @default 'condense-trajectories' */
  readonly queueName?: string;
  /** Entries per job. @default 20, or 1 when a model writes the summaries */
  readonly chunkSize?: number;
  /** Entries on the queue and not yet collected, across files. @default 1000 */
  readonly inFlight?: number;
  /** Tries of a job; a chunk that used them all is retried entry by entry, an entry that did is kept as failed. @default 3 */
  readonly attempts?: number;
  /** How often outstanding jobs are looked at besides queue events, in milliseconds. @default 2000 */
  readonly pollMs?: number;
  /** How long results and finished jobs stay in Redis when no submitter collects them, in seconds. @default 7 days */
  readonly retentionSeconds?: number;
  /** Model options as they travel on the queue (no key: workers read theirs). @default the run's model, keyless */
  readonly model?: QueueJobConfig['model'];
}

const WEEK_SECONDS = 7 * 24 * 3600;
/** Outstanding jobs looked at per sweep at most: a large window is covered over several sweeps. */
const SWEEP_BATCH = 200;

/**
 * The submitting side of a queue run, for `runTrajectories({ dispatcher })`: each file's entries go to a BullMQ
 * queue in chunks whose job ids are derived from the settings, the file's bytes and the chunk's position, so a
 * restarted (or second) submitter of the same work finds the same jobs and the results already stored instead
 * of adding new ones. Results come back through queue events, and a periodic sweep catches whatever events
 * missed (a restarted Redis, a restarted submitter): a job that vanished is added again, a chunk whose job
 * failed every attempt is retried entry by entry, and an entry that still fails is kept as it was, with the
 * reason. Each entry is settled exactly once.
 */
export function createQueueDispatcher(
  options: QueueDispatcherOptions,
): (setup: DispatcherSetup) => Promise<EntryDispatcher> {
  return async (setup) => {
    const { queueName, redis, queue, events, problem } = await openQueue(options, setup);
    const { model: _key, ...rest } = setup.config;
    const model =
      options.model ?? (setup.config.model === undefined ? undefined : keyless(setup.config.model));
    const config = encodeJobConfig({ ...rest, ...(model === undefined ? {} : { model }) });
    const chunkSize = Math.max(1, options.chunkSize ?? (model === undefined ? 20 : 1));
    const slots = createLimiter(Math.max(1, Math.floor((options.inFlight ?? 1000) / chunkSize)));
    const retentionSeconds = options.retentionSeconds ?? WEEK_SECONDS;
    const outstanding = new Map<string, Chunk>();
    const idsByFile = new Map<PreparedFile, string[]>();
    const found = new Map<PreparedFile, number>();
    const template = {
      v: 1 as const,
      config,
      configKey: configKeyOf(config, setup.timeoutMs),
      timeoutMs: setup.timeoutMs,
      retentionSeconds,
    };
    const checker = createChunkChecker({
      queue,
      redis,
      queueName,
      outstanding,
      attempts: options.attempts ?? 3,
      retentionSeconds,
      jobData: (chunk): ChunkJobData => ({
        ...template,
        format: chunk.file.format,
        file: chunk.file.file.input,
        entries: chunk.file.entries.slice(chunk.start, chunk.start + chunk.count),
      }),
      track: (chunk) => idsByFile.get(chunk.file)?.push(chunk.id),
      found: (chunk) => found.set(chunk.file, (found.get(chunk.file) ?? 0) + chunk.count),
      done: () => slots.release(),
      notice: setup.notice,
      problem,
    });
    const wake = ({ jobId }: { jobId: string }) => {
      const chunk = outstanding.get(jobId);
      if (chunk !== undefined) void checker.check(chunk);
    };
    events.on('completed', wake);
    events.on('failed', wake);
    const pollMs = options.pollMs ?? 2000;
    const sweep = startSweep(outstanding, checker, redis, pollMs);
    return {
      async dispatch(file, settle) {
        const fileKey = fileKeyOf(setup, file, chunkSize);
        idsByFile.set(file, []);
        const finished: Promise<void>[] = [];
        for (let start = 0; start < file.entries.length; start += chunkSize) {
          await slots.acquire();
          const count = Math.min(chunkSize, file.entries.length - start);
          const chunk = createChunk(`${fileKey}.${start / chunkSize}`, file, start, count, settle);
          idsByFile.get(file)?.push(chunk.id);
          finished.push(chunk.finished);
          outstanding.set(chunk.id, chunk);
          // Not awaited: adding jobs one round trip after another would cap the rate of a large run.
          void checker.check(chunk);
        }
        return { done: Promise.all(finished).then(() => undefined) };
      },
      async written(file) {
        const reused = found.get(file) ?? 0;
        if (reused > 0) {
          setup.notice(
            `queue: ${file.file.input}: ${reused} entries were already done on the queue (by an earlier or a concurrent run)`,
          );
        }
        found.delete(file);
        const ids = idsByFile.get(file) ?? [];
        idsByFile.delete(file);
        // Clean-up only (the results expire anyway): a Redis that is gone must not hold the finished run.
        await atMost(checker.forget(ids).catch(problem), 10_000);
      },
      async close() {
        clearInterval(sweep);
        await Promise.allSettled([events.close(), queue.close()]);
        redis.disconnect();
      },
    };
  };
}

/** Connects to Redis (failing at once when it cannot) and opens the queue and its events. */
async function openQueue(options: QueueDispatcherOptions, setup: DispatcherSetup) {
  const { target, queueName, redis, problem } = await connectQueueRedis(
    options.url,
    options.queueName,
    (at, error) => setup.notice(`queue: ${at.display}: ${error.message}; waiting for Redis, nothing is lost`),
  );
  const connection = bullConnection(target);
  const queue = new Queue(queueName, { connection });
  const events = new QueueEvents(queueName, { connection });
  queue.on('error', problem);
  events.on('error', problem);
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  return { queueName, redis, queue, events, problem };
}

/**
 * Looks at outstanding chunks on a timer. Events bring results at once; the sweep only catches what they missed,
 * so it looks less and less often at a job still waiting or running (down to every 30 s), and at every chunk
 * again as soon as Redis is back after losing the connection.
 */
function startSweep(
  outstanding: ReadonlyMap<string, Chunk>,
  checker: ChunkChecker,
  redis: Redis,
  pollMs: number,
): ReturnType<typeof setInterval> {
  const dueAfter = (chunk: Chunk) => Math.min(pollMs * 2 ** chunk.quietChecks, Math.max(pollMs, 30_000));
  redis.on('ready', () => {
    for (const chunk of outstanding.values()) {
      chunk.quietChecks = 0;
      chunk.lastChecked = 0;
    }
  });
  return setInterval(
    () => {
      const now = Date.now();
      const due = [...outstanding.values()]
        .filter((chunk) => !chunk.checking && now - chunk.lastChecked >= dueAfter(chunk))
        .sort((left, right) => left.lastChecked - right.lastChecked)
        .slice(0, SWEEP_BATCH);
      for (const chunk of due) void checker.check(chunk);
    },
    Math.max(50, Math.floor(pollMs / 2)),
  );
}

/** Waits for `work`, or `ms` milliseconds, whichever comes first. */
async function atMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work, timeout]);
  clearTimeout(timer);
}

function keyless(model: NonNullable<DispatcherSetup['config']['model']>): QueueJobConfig['model'] {
  const { apiKey: _secret, ...rest } = model;
  return rest;
}

/**
 * Names a file's jobs after everything their results depend on: the settings, the per-entry timeout, the
 * file's name and bytes, the entries chosen (sampling) and the chunk size. The same work always gets the same
 * ids.
 */
function fileKeyOf(setup: DispatcherSetup, file: PreparedFile, chunkSize: number): string {
  return settingsFingerprint({
    fingerprint: setup.fingerprint,
    timeoutMs: setup.timeoutMs,
    // The name too: two inputs of one run with the same bytes must not share jobs (each is settled for its file).
    name: file.file.name,
    bytes: sha256(file.bytes),
    lines: sha256(file.entries.map((entry) => entry.line).join(',')),
    format: file.format,
    chunkSize,
  }).slice(0, 32);
}
