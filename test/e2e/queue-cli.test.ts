import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBinary } from '../support/cli.js';
import { jobsDone, QUEUE_SETTINGS, queueSuite, stop, until } from '../support/queue-processes.js';
import { REDIS_SKIP_REASON } from '../support/redis.js';

describe.skipIf(REDIS_SKIP_REASON !== undefined)(
  'condense trajectories --queue with condense worker processes',
  () => {
    const { path, processes, redisUrl } = queueSuite();

    it('resumes collecting when the submitter is killed and started again', async () => {
      const input = processes.dataset('restart', 400);
      const expected = await processes.localRun(input, join(path, 'restart-local'));
      const out = join(path, 'restart-queue');
      const args = [
        'trajectories',
        input,
        ...QUEUE_SETTINGS,
        '--queue',
        redisUrl(),
        '--queue-name',
        'resume',
        '-o',
        out,
      ];
      const first = processes.start(args);
      await until(() => first.stderr.includes('entries (sharegpt)'), 'the first submitter to enqueue');
      const worker = await processes.startWorker('resume');
      await until(() => jobsDone(worker) >= 5, 'some jobs to be done');
      first.child.kill('SIGKILL');
      await first.exited;
      await until(() => jobsDone(worker) >= 20, 'every job to be done');
      const second = await runBinary(args, { cwd: path });
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(/400 entries were already done on the queue/);
      expect(readFileSync(join(out, 'runs.jsonl'), 'utf8')).toBe(expected);
      // Nothing was processed twice: 20 chunks of 20, each done once.
      expect(jobsDone(worker)).toBe(20);
      await stop(worker);
    }, 120_000);

    it('says what is wrong with a bad --queue, and when Redis cannot be reached', async () => {
      const input = processes.dataset('bad', 2);
      const url = await runBinary(['trajectories', input, '--queue', 'http://localhost:6379'], {
        cwd: path,
      });
      expect(url.code).toBe(2);
      expect(url.stderr).toContain('--queue must be a Redis URL');
      const down = await runBinary([
        'trajectories',
        input,
        '--queue',
        'redis://127.0.0.1:1',
        '-o',
        join(path, 'x'),
      ]);
      expect(down.code).toBe(1);
      expect(down.stderr).toContain('cannot reach Redis at redis://127.0.0.1:1');
      const worker = await runBinary(['worker']);
      expect(worker.code).toBe(2);
      expect(worker.stderr).toContain("required option '--queue <url>'");
    });
  },
);
