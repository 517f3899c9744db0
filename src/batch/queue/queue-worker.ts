import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { createEntryExecutor } from '../create-executor.js';
import type { EntryExecutor } from '../entry-executor.js';
import { createLimiter } from '../progress.js';
import type { EntryResult, JobModel, TrajectoryJobConfig } from '../trajectory-job.js';
import {
  type ChunkJobData,
  decodeJobConfig,
  parseChunkJob,
  type QueueModel,
  resultKey,
  type StoredResults,
} from './chunk-job.js';
import { bullConnection, connectQueueRedis } from './redis-client.js';

/** Options of {@link startQueueWorker}. */
export interface QueueWorkerOptions {
  /** `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  readonly url: string;
  /** @default 'condense-trajectories' */
  readonly queueName?: string;
  /** Shown as the job's `processedBy` and in logs. */
  readonly name?: string;
  /** Entries this worker processes at once, across jobs (bounds its model calls). @default 50 */
  readonly concurrency?: number;
  /** Worker threads for the CPU work; 0 runs everything on this thread. @default 0 */
  readonly threads?: number;
  /**
   * At most `max` jobs start per `durationMs` across every worker of the queue (BullMQ's limiter, kept in
   * Redis). Give every worker the same value.
   */
  readonly rateLimit?: { readonly max: number; readonly durationMs: number };
  /**
   * How long a job stays locked without a sign of life from its worker; a worker that died (kill -9, lost
   * machine) gives its jobs back to the queue after about this long. @default 30000
   */
  readonly lockMs?: number;
  /** The API key for a model named by a job, from this worker's own environment. */
  readonly apiKeyFor?: (model: QueueModel) => string | undefined;
  /** Builds the executor for a configuration (tests inject faults). @default worker threads or this thread */
  readonly createExecutor?: (config: TrajectoryJobConfig, timeoutMs: number) => Promise<EntryExecutor>;
  readonly onEvent?: (event: QueueWorkerEvent) => void;
}

/** What a worker reports. */
export type QueueWorkerEvent =
  | { readonly type: 'ready'; readonly queue: string; readonly name: string }
  | {
      readonly type: 'job-done';
      readonly id: string;
      readonly entries: number;
      readonly failed: number;
      readonly ms: number;
    }
  | { readonly type: 'job-failed'; readonly id: string; readonly attempt: number; readonly message: string }
  | { readonly type: 'problem'; readonly message: string };

/** A running worker. */
export interface RunningQueueWorker {
  /** Jobs completed so far. */
  readonly completed: number;
  /** Stops taking jobs, lets the running ones finish, and disconnects. */
  close(): Promise<void>;
}

/** Executors kept at once, one per configuration (a worker may serve several runs). */
const MAX_EXECUTORS = 4;

/**
 * Serves `condense trajectories --queue` runs: takes chunk jobs from the BullMQ queue, processes their entries
 * with the job's settings (the same per-entry job as a local run, at most `concurrency` at once across jobs,
 * each under the job's timeout), stores the results under the job's result key and completes the job. A job
 * that throws is retried by BullMQ; a worker that dies leaves its jobs locked until the lock expires, when
 * another worker takes them. Resolves once connected.
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<RunningQueueWorker> {
  const emit = options.onEvent ?? (() => undefined);
  const { target, queueName, redis, problem } = await connectQueueRedis(
    options.url,
    options.queueName,
    (at, error) => emit({ type: 'problem', message: `${at.display}: ${error.message}` }),
  );
  const concurrency = Math.max(1, options.concurrency ?? 50);
  const limiter = createLimiter(concurrency);
  const executors = createExecutorCache(options);
  let nextId = 0;
  let completed = 0;
  const name = options.name ?? 'condense-worker';
  const lockMs = options.lockMs ?? 30_000;

  const processJob = async (job: Job): Promise<{ entries: number; failed: number }> => {
    const started = Date.now();
    let data: ChunkJobData;
    try {
      data = parseChunkJob(job.data);
    } catch (error) {
      throw new UnrecoverableError((error as Error).message);
    }
    // Enough jobs at once to keep `concurrency` entries busy, whatever the chunk size.
    const jobsAtOnce = Math.min(concurrency, Math.ceil(concurrency / Math.max(1, data.entries.length)) + 1);
    if (worker.concurrency !== jobsAtOnce) worker.concurrency = jobsAtOnce;
    const { executor, release } = await executors.use(data);
    let results: EntryResult[];
    try {
      results = await Promise.all(
        data.entries.map(async (entry): Promise<EntryResult> => {
          await limiter.acquire();
          try {
            return await executor.run({
              id: nextId++,
              format: data.format,
              text: entry.text,
              line: entry.line,
            });
          } finally {
            limiter.release();
          }
        }),
      );
    } finally {
      release();
    }
    const stored: StoredResults = { v: 1, results };
    await redis.set(resultKey(queueName, job.id ?? ''), JSON.stringify(stored), 'EX', data.retentionSeconds);
    const failed = results.filter((result) => result.outcome === 'failed' || result.outcome === 'timed-out');
    completed++;
    emit({
      type: 'job-done',
      id: job.id ?? '',
      entries: results.length,
      failed: failed.length,
      ms: Date.now() - started,
    });
    return { entries: results.length, failed: failed.length };
  };

  const worker: Worker = new Worker(queueName, processJob, {
    connection: bullConnection(target),
    name,
    concurrency: 2,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 1,
    ...(options.rateLimit === undefined
      ? {}
      : { limiter: { max: options.rateLimit.max, duration: options.rateLimit.durationMs } }),
  });
  worker.on('error', problem);
  worker.on('failed', (job, error) => {
    if (job === undefined) return;
    emit({ type: 'job-failed', id: job.id ?? '', attempt: job.attemptsMade, message: error.message });
  });
  await worker.waitUntilReady();
  emit({ type: 'ready', queue: `${target.display} ${queueName}`, name });
  return {
    get completed() {
      return completed;
    },
    async close() {
      await worker.close();
      await executors.close();
      redis.disconnect();
    },
  };
}

interface ExecutorCache {
  /** The executor for the job's configuration; `release` when the job is done with it. */
  use(data: ChunkJobData): Promise<{ readonly executor: EntryExecutor; release(): void }>;
  close(): Promise<void>;
}

interface CachedExecutor {
  readonly executor: Promise<EntryExecutor>;
  users: number;
}

/**
 * One executor per configuration and timeout. Beyond four, idle ones are closed (never one a job is using:
 * closing a thread pool would fail its entries).
 */
function createExecutorCache(options: QueueWorkerOptions): ExecutorCache {
  const cache = new Map<string, CachedExecutor>();
  const build = (data: ChunkJobData): Promise<EntryExecutor> => {
    const config = localConfig(decodeJobConfig(data.config), options);
    if (options.createExecutor !== undefined) return options.createExecutor(config, data.timeoutMs);
    return createEntryExecutor({
      config,
      timeoutMs: data.timeoutMs,
      ...(options.threads === undefined ? {} : { workers: options.threads }),
    });
  };
  const evict = () => {
    for (const [key, entry] of cache) {
      if (cache.size <= MAX_EXECUTORS) return;
      if (entry.users > 0) continue;
      cache.delete(key);
      void entry.executor.then((executor) => executor.close()).catch(() => undefined);
    }
  };
  return {
    async use(data) {
      let entry = cache.get(data.configKey);
      if (entry === undefined) {
        entry = { executor: build(data), users: 0 };
        cache.set(data.configKey, entry);
      } else {
        cache.delete(data.configKey);
        cache.set(data.configKey, entry);
      }
      const held = entry;
      held.users++;
      try {
        const executor = await held.executor;
        evict();
        return {
          executor,
          release: () => {
            held.users--;
            evict();
          },
        };
      } catch (error) {
        held.users--;
        // A configuration that cannot be built here (a tokenizer file missing) is retried, not remembered.
        if (cache.get(data.configKey) === held) cache.delete(data.configKey);
        throw error;
      }
    },
    async close() {
      const all = [...cache.values()];
      cache.clear();
      await Promise.allSettled(all.map(async (entry) => (await entry.executor).close()));
    },
  };
}

/** The job's configuration with this worker's API key for its model. */
function localConfig(
  config: ReturnType<typeof decodeJobConfig>,
  options: QueueWorkerOptions,
): TrajectoryJobConfig {
  const { model, ...rest } = config;
  if (model === undefined) return rest;
  const { apiKeyEnv: _variable, ...plain } = model;
  const apiKey = options.apiKeyFor?.(model);
  const local: JobModel = { ...plain, ...(apiKey === undefined ? {} : { apiKey }) };
  return { ...rest, model: local };
}
