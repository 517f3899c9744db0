import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { shareGptLine, writeDataset } from '../batch/helpers.js';
import { BIN, runBinary, temporaryDirectory } from './cli.js';
import { startRedis, type TestRedis } from './redis.js';

/** Rough tokens and small budgets: 8-step runs compress, 2-step runs stay under the target. */
export const QUEUE_SETTINGS = ['--tokenizer', 'rough', '--target', '700', '--summary-target', '60'];

/** A running `condense` process, with what it has written to standard error so far. */
export interface Running {
  readonly child: ChildProcess;
  stderr: string;
  readonly exited: Promise<number>;
}

/** Polls `condition` every 50 ms; throws naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops a process politely and waits for it. */
export async function stop(running: Running): Promise<void> {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGTERM');
  await running.exited;
}

/** How many chunk jobs a worker says it finished. */
export function jobsDone(worker: Running): number {
  return worker.stderr.split('\n').filter((line) => /^condense: job \S+: \d+ entries/.test(line)).length;
}

/**
 * `condense` processes (submitters and workers) started in one directory against one Redis, all killed by
 * {@link QueueProcesses.killAll} after each test.
 */
export class QueueProcesses {
  readonly #children = new Set<ChildProcess>();
  readonly #directory: string;
  readonly #redisUrl: () => string;

  constructor(directory: string, redisUrl: () => string) {
    this.#directory = directory;
    this.#redisUrl = redisUrl;
  }

  start(args: readonly string[]): Running {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: this.#directory,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.#children.add(child);
    const running: Running = {
      child,
      stderr: '',
      exited: new Promise((resolve) =>
        child.on('exit', (code, signal) => {
          this.#children.delete(child);
          resolve(code ?? (signal === null ? -1 : 128));
        }),
      ),
    };
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      running.stderr += chunk;
    });
    return running;
  }

  async startWorker(queueName: string): Promise<Running> {
    const worker = this.start([
      'worker',
      '--queue',
      this.#redisUrl(),
      '--queue-name',
      queueName,
      '--lock-seconds',
      '2',
      '--workers',
      '0',
      '--concurrency',
      '8',
    ]);
    await until(() => worker.stderr.includes('serving'), 'a worker to connect');
    return worker;
  }

  /** A ShareGPT dataset of `count` entries; every fourth is short enough to stay uncompressed. */
  dataset(name: string, count: number): string {
    return writeDataset(
      join(this.#directory, name),
      'runs.jsonl',
      Array.from({ length: count }, (_, index) => shareGptLine(index, index % 4 === 3 ? 2 : 8)),
    );
  }

  /** Compresses `input` without a queue into `out`; returns the written `runs.jsonl`. */
  async localRun(input: string, out: string): Promise<string> {
    const local = await runBinary(['trajectories', input, ...QUEUE_SETTINGS, '--workers', '0', '-o', out]);
    expect(local.code).toBe(0);
    return readFileSync(join(out, 'runs.jsonl'), 'utf8');
  }

  killAll(): void {
    for (const child of this.#children) child.kill('SIGKILL');
    this.#children.clear();
  }
}

/** What a queue suite's tests use: a directory, its processes and the Redis they share. */
export interface QueueSuite {
  readonly path: string;
  readonly processes: QueueProcesses;
  /** The suite's Redis URL (started before the first test). */
  redisUrl(): string;
}

/**
 * Registers, in the calling `describe`, a Redis started before the tests and stopped after them, every process
 * killed after each test, and a temporary directory removed at the end.
 */
export function queueSuite(): QueueSuite {
  const tmp = temporaryDirectory();
  let redis: TestRedis | undefined;
  const redisUrl = (): string => {
    if (redis === undefined) throw new Error('Redis is not started yet');
    return redis.url;
  };
  const processes = new QueueProcesses(tmp.path, redisUrl);
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(() => processes.killAll());
  afterAll(async () => {
    await redis?.stop();
    tmp.remove();
  });
  return { path: tmp.path, processes, redisUrl };
}
