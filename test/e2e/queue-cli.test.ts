import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shareGptLine, taskOf, writeDataset } from '../batch/helpers.js';
import { BIN, runBinary, temporaryDirectory } from '../support/cli.js';
import { REDIS_SKIP_REASON, startRedis, type TestRedis } from '../support/redis.js';

const tmp = temporaryDirectory();
let redis: TestRedis;
const children = new Set<ChildProcess>();

/** Rough tokens and small budgets: 8-step runs compress, 2-step runs stay under the target. */
const SETTINGS = ['--tokenizer', 'rough', '--target', '700', '--summary-target', '60'];

/** A running `condense` process, with what it has written to standard error so far. */
interface Running {
  readonly child: ChildProcess;
  stderr: string;
  readonly exited: Promise<number>;
}

function start(args: readonly string[]): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: tmp.path,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  const running: Running = {
    child,
    stderr: '',
    exited: new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        children.delete(child);
        resolve(code ?? (signal === null ? -1 : 128));
      }),
    ),
  };
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    running.stderr += chunk;
  });
  return running;
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startWorker(queueName: string): Promise<Running> {
  const worker = start([
    'worker',
    '--queue',
    redis.url,
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

async function stop(running: Running): Promise<void> {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGTERM');
  await running.exited;
}

function jobsDone(worker: Running): number {
  return worker.stderr.split('\n').filter((line) => /^condense: job \S+: \d+ entries/.test(line)).length;
}

function dataset(name: string, count: number): string {
  return writeDataset(
    join(tmp.path, name),
    'runs.jsonl',
    Array.from({ length: count }, (_, index) => shareGptLine(index, index % 4 === 3 ? 2 : 8)),
  );
}

async function localRun(input: string, out: string): Promise<string> {
  const local = await runBinary(['trajectories', input, ...SETTINGS, '--workers', '0', '-o', out]);
  expect(local.code).toBe(0);
  return readFileSync(join(out, 'runs.jsonl'), 'utf8');
}

describe.skipIf(REDIS_SKIP_REASON !== undefined)(
  'condense trajectories --queue with condense worker processes',
  () => {
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterEach(async () => {
      for (const child of children) child.kill('SIGKILL');
      children.clear();
    });
    afterAll(async () => {
      await redis?.stop();
      tmp.remove();
    });

    it('compresses 5,000 entries with 3 workers, one killed mid-run, exactly as a local run does', async () => {
      const input = dataset('five-thousand', 5000);
      const expected = await localRun(input, join(tmp.path, 'five-thousand-local'));
      const workers = [
        await startWorker('done-when'),
        await startWorker('done-when'),
        await startWorker('done-when'),
      ];
      const out = join(tmp.path, 'five-thousand-queue');
      const submitter = start([
        'trajectories',
        input,
        ...SETTINGS,
        '--queue',
        `${redis.url}/0`,
        '--queue-name',
        'done-when',
        '-o',
        out,
        '--json',
      ]);
      const victim = workers[1] as Running;
      await until(() => jobsDone(victim) >= 3, 'the second worker to be busy');
      victim.child.kill('SIGKILL');
      expect(await submitter.exited).toBe(0);
      const written = readFileSync(join(out, 'runs.jsonl'), 'utf8');
      expect(written).toBe(expected);
      const tasks = written
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).conversations[1].value);
      expect(tasks).toEqual(Array.from({ length: 5000 }, (_, index) => taskOf(index)));
      const metrics = JSON.parse(readFileSync(join(out, 'compression_metrics.json'), 'utf8'));
      const reference = JSON.parse(
        readFileSync(join(tmp.path, 'five-thousand-local', 'compression_metrics.json'), 'utf8'),
      );
      expect(metrics.summary).toEqual(reference.summary);
      expect(metrics.tokens).toEqual(reference.tokens);
      expect(submitter.stderr).toMatch(/compressed 3,750 of 5,000 trajectories/);
      // The survivors took over what the killed worker held: every chunk was completed by someone.
      const survivors = jobsDone(workers[0] as Running) + jobsDone(workers[2] as Running);
      expect(survivors + jobsDone(victim)).toBeGreaterThanOrEqual(250);
      await Promise.all([stop(workers[0] as Running), stop(workers[2] as Running)]);
    }, 240_000);

    it('resumes collecting when the submitter is killed and started again', async () => {
      const input = dataset('restart', 400);
      const expected = await localRun(input, join(tmp.path, 'restart-local'));
      const out = join(tmp.path, 'restart-queue');
      const args = [
        'trajectories',
        input,
        ...SETTINGS,
        '--queue',
        redis.url,
        '--queue-name',
        'resume',
        '-o',
        out,
      ];
      const first = start(args);
      await until(() => first.stderr.includes('entries (sharegpt)'), 'the first submitter to enqueue');
      const worker = await startWorker('resume');
      await until(() => jobsDone(worker) >= 5, 'some jobs to be done');
      first.child.kill('SIGKILL');
      await first.exited;
      await until(() => jobsDone(worker) >= 20, 'every job to be done');
      const second = await runBinary(args, { cwd: tmp.path });
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(/400 entries were already done on the queue/);
      expect(readFileSync(join(out, 'runs.jsonl'), 'utf8')).toBe(expected);
      // Nothing was processed twice: 20 chunks of 20, each done once.
      expect(jobsDone(worker)).toBe(20);
      await stop(worker);
    }, 120_000);

    it('says what is wrong with a bad --queue, and when Redis cannot be reached', async () => {
      const input = dataset('bad', 2);
      const url = await runBinary(['trajectories', input, '--queue', 'http://localhost:6379'], {
        cwd: tmp.path,
      });
      expect(url.code).toBe(2);
      expect(url.stderr).toContain('--queue must be a Redis URL');
      const down = await runBinary([
        'trajectories',
        input,
        '--queue',
        'redis://127.0.0.1:1',
        '-o',
        join(tmp.path, 'x'),
      ]);
      expect(down.code).toBe(1);
      expect(down.stderr).toContain('cannot reach Redis at redis://127.0.0.1:1');
      const worker = await runBinary(['worker']);
      expect(worker.code).toBe(2);
      expect(worker.stderr).toContain("required option '--queue <url>'");
    });
  },
);
