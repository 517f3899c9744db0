import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchEvent, TrajectoryRunReport } from '../../src/batch/batch-events.js';
import { createInProcessExecutor, type EntryExecutor } from '../../src/batch/entry-executor.js';
import { createQueueDispatcher } from '../../src/batch/queue/queue-dispatcher.js';
import { type RunningQueueWorker, startQueueWorker } from '../../src/batch/queue/queue-worker.js';
import { runTrajectories } from '../../src/batch/run-trajectories.js';
import type { TrajectoryJobConfig } from '../../src/batch/trajectory-job.js';
import { conversations, shareGptParquet } from '../io/parquet-fixtures.js';
import { temporaryDirectory } from '../support/cli.js';
import { REDIS_SKIP_REASON, startRedis, type TestRedis } from '../support/redis.js';
import { extractiveRuntime, shareGptLine, taskOf, testConfig, writeDataset } from './helpers.js';

const tmp = temporaryDirectory();
let redis: TestRedis;
let queueCount = 0;

/** A queue of the test's own, so tests sharing the server never see each other's jobs. */
function freshQueue(): string {
  queueCount++;
  return `test-queue-${queueCount}`;
}

/** An executor on this thread (character tokens), slowed down and made to fail on request. */
function testExecutor(
  config: TrajectoryJobConfig,
  timeoutMs: number,
  faults: { delayMs?: number; poison?: string } = {},
): EntryExecutor {
  const inner = createInProcessExecutor(extractiveRuntime(), config, timeoutMs);
  return {
    async run(job) {
      if (faults.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, faults.delayMs));
      // A real poison entry crashes or hangs its worker; throwing out of the job is what BullMQ sees of that.
      if (faults.poison !== undefined && job.text.includes(faults.poison)) {
        throw new Error('the worker crashed on this entry');
      }
      return inner.run(job);
    },
    close: () => inner.close(),
  };
}

async function worker(
  queueName: string,
  faults: { delayMs?: number; poison?: string } = {},
  concurrency = 4,
): Promise<RunningQueueWorker> {
  return startQueueWorker({
    url: redis.url,
    queueName,
    concurrency,
    lockMs: 2000,
    createExecutor: async (config, timeoutMs) => testExecutor(config, timeoutMs, faults),
  });
}

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').trimEnd().split('\n');
}

interface Run {
  readonly report: TrajectoryRunReport;
  readonly events: BatchEvent[];
}

async function runLocal(input: string, out: string): Promise<Run> {
  const events: BatchEvent[] = [];
  const report = await runTrajectories({
    inputs: [input],
    cwd: tmp.path,
    out,
    config: testConfig(),
    runtime: extractiveRuntime(),
    onEvent: (event) => events.push(event),
  });
  return { report, events };
}

async function runQueued(
  input: string,
  out: string,
  queueName: string,
  extra: { chunkSize?: number; attempts?: number; onEvent?: (event: BatchEvent) => void } = {},
): Promise<Run> {
  const events: BatchEvent[] = [];
  const report = await runTrajectories({
    inputs: [input],
    cwd: tmp.path,
    out,
    config: testConfig(),
    dispatcher: createQueueDispatcher({
      url: redis.url,
      queueName,
      chunkSize: extra.chunkSize ?? 7,
      attempts: extra.attempts ?? 2,
      pollMs: 200,
    }),
    onEvent: (event) => {
      events.push(event);
      extra.onEvent?.(event);
    },
  });
  return { report, events };
}

/** A dataset of `count` runs (every fourth one short, so outcomes differ), and where it is. */
function dataset(name: string, count: number, offset = 0, poisonAt?: number): string {
  const entries = Array.from({ length: count }, (_, index) => {
    const line = shareGptLine(offset + index, index % 4 === 3 ? 2 : 8);
    return index === poisonAt
      ? line.replace(taskOf(offset + index), 'POISON: this entry breaks workers')
      : line;
  });
  return writeDataset(join(tmp.path, name), 'runs.jsonl', entries);
}

/** The task of each output line, in file order. */
function tasksOf(path: string): string[] {
  return lines(path).map((line) => JSON.parse(line).conversations[1].value as string);
}

describe.skipIf(REDIS_SKIP_REASON !== undefined)('trajectories on a Redis queue (in-process workers)', () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
    tmp.remove();
  });

  it('writes what a local run writes: every entry once, in order, same metrics', async () => {
    const input = dataset('same', 45);
    const local = await runLocal(input, join(tmp.path, 'same-local'));
    const queueName = freshQueue();
    const workers = [await worker(queueName), await worker(queueName)];
    try {
      const queued = await runQueued(input, join(tmp.path, 'same-queue'), queueName);
      expect(readFileSync(join(tmp.path, 'same-queue', 'runs.jsonl'), 'utf8')).toBe(
        readFileSync(join(tmp.path, 'same-local', 'runs.jsonl'), 'utf8'),
      );
      expect(tasksOf(join(tmp.path, 'same-queue', 'runs.jsonl'))).toEqual(
        Array.from({ length: 45 }, (_, index) => taskOf(index)),
      );
      expect(queued.report.counts).toEqual(local.report.counts);
      expect(queued.report.progress.done).toBe(45);
      expect(workers.reduce((sum, running) => sum + running.completed, 0)).toBe(Math.ceil(45 / 7));
    } finally {
      await Promise.all(workers.map((running) => running.close()));
    }
  });

  it('keeps a poison entry as it was, with the reason, and compresses the rest of its chunk', async () => {
    const input = dataset('poison', 20, 0, 9);
    const local = await runLocal(input, join(tmp.path, 'poison-local'));
    const queueName = freshQueue();
    const running = await worker(queueName, { poison: 'POISON' });
    try {
      const queued = await runQueued(input, join(tmp.path, 'poison-queue'), queueName);
      const out = lines(join(tmp.path, 'poison-queue', 'runs.jsonl'));
      const reference = lines(join(tmp.path, 'poison-local', 'runs.jsonl'));
      expect(out).toHaveLength(20);
      expect(out[9]).toBe(lines(input)[9]);
      expect(out.filter((_, index) => index !== 9)).toEqual(reference.filter((_, index) => index !== 9));
      expect(queued.report.counts.failed).toBe(1);
      expect(queued.report.counts.total).toBe(local.report.counts.total);
      expect(queued.report.issues).toContainEqual(
        expect.objectContaining({ kind: 'failed', line: 10, message: expect.stringContaining('crashed') }),
      );
      expect(queued.events).toContainEqual(
        expect.objectContaining({ type: 'notice', message: expect.stringContaining('one by one') }),
      );
    } finally {
      await running.close();
    }
  });

  it('serves two submitters at once: different datasets, and the same one twice', async () => {
    const first = dataset('two-a', 30);
    const second = dataset('two-b', 25, 100);
    await runLocal(first, join(tmp.path, 'two-a-local'));
    await runLocal(second, join(tmp.path, 'two-b-local'));
    const queueName = freshQueue();
    const workers = [await worker(queueName, { delayMs: 5 }), await worker(queueName, { delayMs: 5 })];
    try {
      const runs = await Promise.all([
        runQueued(first, join(tmp.path, 'two-a-queue'), queueName),
        runQueued(second, join(tmp.path, 'two-b-queue'), queueName),
        runQueued(first, join(tmp.path, 'two-a-again'), queueName),
      ]);
      for (const run of runs) expect(run.report.counts.failed).toBe(0);
      const reference = readFileSync(join(tmp.path, 'two-a-local', 'runs.jsonl'), 'utf8');
      expect(readFileSync(join(tmp.path, 'two-a-queue', 'runs.jsonl'), 'utf8')).toBe(reference);
      expect(readFileSync(join(tmp.path, 'two-a-again', 'runs.jsonl'), 'utf8')).toBe(reference);
      expect(readFileSync(join(tmp.path, 'two-b-queue', 'runs.jsonl'), 'utf8')).toBe(
        readFileSync(join(tmp.path, 'two-b-local', 'runs.jsonl'), 'utf8'),
      );
    } finally {
      await Promise.all(workers.map((running) => running.close()));
    }
  });

  it('finishes with the same output when Redis restarts (and forgets everything) mid-run', async () => {
    const input = dataset('restart', 60);
    await runLocal(input, join(tmp.path, 'restart-local'));
    const queueName = freshQueue();
    const workers = [
      await worker(queueName, { delayMs: 40 }, 2),
      await worker(queueName, { delayMs: 40 }, 2),
    ];
    let restarted: Promise<void> | undefined;
    try {
      const queued = await runQueued(input, join(tmp.path, 'restart-queue'), queueName, {
        chunkSize: 5,
        onEvent: (event) => {
          if (event.type === 'progress' && event.progress.done >= 10 && restarted === undefined) {
            restarted = redis.restart();
          }
        },
      });
      await restarted;
      expect(restarted).toBeDefined();
      const notices = queued.events.flatMap((event) => (event.type === 'notice' ? [event.message] : []));
      // Whether the submitter saw Redis down ("waiting for Redis") depends on how fast the restart was; that
      // the jobs Redis forgot were added again does not.
      expect(notices).toEqual(expect.arrayContaining([expect.stringContaining('adding it again')]));
      for (const notice of notices) expect(notice).toMatch(/waiting for Redis|adding it again/);
      expect(queued.report.counts.failed).toBe(0);
      expect(readFileSync(join(tmp.path, 'restart-queue', 'runs.jsonl'), 'utf8')).toBe(
        readFileSync(join(tmp.path, 'restart-local', 'runs.jsonl'), 'utf8'),
      );
    } finally {
      await Promise.all(workers.map((running) => running.close()));
    }
  });

  it('writes the same Parquet file through the queue as a local run', async () => {
    const dir = join(tmp.path, 'parquet');
    writeDataset(dir, 'placeholder.jsonl', []);
    const input = join(dir, 'runs.parquet');
    shareGptParquet(input, conversations(30));
    await runLocal(input, join(tmp.path, 'parquet-local'));
    const queueName = freshQueue();
    const running = await worker(queueName);
    try {
      await runQueued(input, join(tmp.path, 'parquet-queue'), queueName);
      expect(readFileSync(join(tmp.path, 'parquet-queue', 'runs.parquet'))).toEqual(
        readFileSync(join(tmp.path, 'parquet-local', 'runs.parquet')),
      );
    } finally {
      await running.close();
    }
  });

  it('shares the rate limit across workers and sends the per-entry timeout with every job', async () => {
    const input = dataset('limited', 12);
    const queueName = freshQueue();
    const starts: number[] = [];
    const timeouts = new Set<number>();
    const limited = () =>
      startQueueWorker({
        url: redis.url,
        queueName,
        rateLimit: { max: 2, durationMs: 1500 },
        createExecutor: async (config, timeoutMs) => {
          timeouts.add(timeoutMs);
          const inner = testExecutor(config, timeoutMs);
          return {
            run(job) {
              // The first entry of each three-entry chunk marks when its job started.
              if (job.line % 3 === 1) starts.push(Date.now());
              return inner.run(job);
            },
            close: () => inner.close(),
          };
        },
      });
    const workers = [await limited(), await limited()];
    try {
      const report = await runTrajectories({
        inputs: [input],
        cwd: tmp.path,
        out: join(tmp.path, 'limited-out'),
        config: testConfig(),
        timeoutMs: 4321,
        dispatcher: createQueueDispatcher({ url: redis.url, queueName, chunkSize: 3, pollMs: 200 }),
      });
      expect(report.counts.total).toBe(12);
      expect([...timeouts]).toEqual([4321]);
      starts.sort((left, right) => left - right);
      expect(starts).toHaveLength(4);
      // Two jobs per 1.5 s across both workers: the third start is a window after the first.
      for (let index = 2; index < starts.length; index++) {
        expect((starts[index] as number) - (starts[index - 2] as number)).toBeGreaterThanOrEqual(1400);
      }
    } finally {
      await Promise.all(workers.map((running) => running.close()));
    }
  });

  it('keeps two inputs with the same bytes apart in one run', async () => {
    const lines = Array.from({ length: 9 }, (_, index) => shareGptLine(index));
    const dir = join(tmp.path, 'twins');
    writeDataset(dir, 'one.jsonl', lines);
    writeDataset(dir, 'two.jsonl', lines);
    const queueName = freshQueue();
    const running = await worker(queueName);
    try {
      const report = await runTrajectories({
        inputs: [dir],
        cwd: tmp.path,
        out: join(tmp.path, 'twins-out'),
        config: testConfig(),
        dispatcher: createQueueDispatcher({ url: redis.url, queueName, chunkSize: 4, pollMs: 200 }),
      });
      expect(report.counts.total).toBe(18);
      expect(readFileSync(join(tmp.path, 'twins-out', 'two.jsonl'), 'utf8')).toBe(
        readFileSync(join(tmp.path, 'twins-out', 'one.jsonl'), 'utf8'),
      );
      expect(tasksOf(join(tmp.path, 'twins-out', 'one.jsonl'))).toEqual(
        lines.map((_, index) => taskOf(index)),
      );
    } finally {
      await running.close();
    }
  });

  it('fails at once, naming the address, when Redis cannot be reached', async () => {
    const input = dataset('unreachable', 2);
    await expect(
      runTrajectories({
        inputs: [input],
        cwd: tmp.path,
        out: join(tmp.path, 'unreachable-out'),
        config: testConfig(),
        dispatcher: createQueueDispatcher({ url: 'redis://127.0.0.1:1' }),
      }),
    ).rejects.toMatchObject({ code: 'QUEUE_FAILED', message: expect.stringContaining('127.0.0.1:1') });
  });
});
