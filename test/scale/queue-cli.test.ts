import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskOf } from '../batch/helpers.js';
import {
  jobsDone,
  QUEUE_SETTINGS,
  queueSuite,
  type Running,
  stop,
  until,
} from '../support/queue-processes.js';
import { REDIS_SKIP_REASON } from '../support/redis.js';

describe.skipIf(REDIS_SKIP_REASON !== undefined)('condense trajectories --queue at dataset scale', () => {
  const { path, processes, redisUrl } = queueSuite();

  it('compresses 5,000 entries with 3 workers, one killed mid-run, exactly as a local run does', async () => {
    const input = processes.dataset('five-thousand', 5000);
    const expected = await processes.localRun(input, join(path, 'five-thousand-local'));
    const workers = [
      await processes.startWorker('done-when'),
      await processes.startWorker('done-when'),
      await processes.startWorker('done-when'),
    ];
    const out = join(path, 'five-thousand-queue');
    const submitter = processes.start([
      'trajectories',
      input,
      ...QUEUE_SETTINGS,
      '--queue',
      `${redisUrl()}/0`,
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
      readFileSync(join(path, 'five-thousand-local', 'compression_metrics.json'), 'utf8'),
    );
    expect(metrics.summary).toEqual(reference.summary);
    expect(metrics.tokens).toEqual(reference.tokens);
    expect(submitter.stderr).toMatch(/compressed 3,750 of 5,000 trajectories/);
    // The survivors took over what the killed worker held: every chunk was completed by someone. A survivor logs
    // a chunk just after finishing it, so its line may still be on the way; and the victim may have finished one
    // chunk it was killed before logging, which no one redoes.
    const survivors = () => jobsDone(workers[0] as Running) + jobsDone(workers[2] as Running);
    await until(
      () => survivors() + jobsDone(victim) >= 249,
      'the survivors to log the chunks they took over',
      10_000,
    );
    expect(survivors() + jobsDone(victim)).toBeGreaterThanOrEqual(249);
    await Promise.all([stop(workers[0] as Running), stop(workers[2] as Running)]);
  }, 240_000);
});
