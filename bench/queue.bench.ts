import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createQueueDispatcher } from '../src/batch/queue/queue-dispatcher.js';
import { runTrajectories } from '../src/batch/run-trajectories.js';
import type { TrajectoryJobConfig } from '../src/batch/trajectory-job.js';
import { documentTranscripts } from '../src/codecs/document.js';
import { decodeDocument, getCodec } from '../src/codecs/registry.js';
import { startLoopbackProvider } from '../src/testing.js';
import { shareGptLine } from '../test/batch/helpers.js';
import { BIN } from '../test/support/cli.js';
import { CORPUS_DIR } from '../test/support/corpus.js';
import { REDIS_SKIP_REASON, startRedis, type TestRedis } from '../test/support/redis.js';
import { type BenchRow, type BenchSuite, round } from './harness.js';

const SUITE = 'queue';
const TAU = join(CORPUS_DIR, 'openai', 'sierra-research__tau-bench__gpt-4o-airline.json');
const SETTINGS = { targetMaxTokens: 2000, summaryTargetTokens: 250 };
const LATENCY_MS = 100;
/** Entries each worker (or the local runner) keeps in flight in the model-bound case. */
const MODEL_CONCURRENCY = 8;

/** 600 entries: tau-bench's 200 runs three times when the corpus is here, generated runs otherwise. */
function dataset(): { lines: string[]; source: string } {
  if (!existsSync(TAU)) {
    return { lines: Array.from({ length: 600 }, (_, index) => shareGptLine(index, 12)), source: 'generated' };
  }
  const sharegpt = getCodec('sharegpt');
  const runs = documentTranscripts(decodeDocument(readFileSync(TAU, 'utf8'))).map((transcript) =>
    JSON.stringify(sharegpt.encode({ messages: transcript.messages })),
  );
  return { lines: [...runs, ...runs, ...runs], source: 'tau-bench ×3' };
}

async function seconds(task: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await task();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Starts `count` `condense worker` processes (built CLI) and waits until each serves the queue. */
async function startWorkers(redis: TestRedis, queueName: string, count: number, concurrency: number) {
  const children: ChildProcess[] = [];
  await Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(
        process.execPath,
        [
          BIN,
          'worker',
          '--queue',
          redis.url,
          '--queue-name',
          queueName,
          '--workers',
          '0',
          '--concurrency',
          String(concurrency),
          '--quiet',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      children.push(child);
      return new Promise<void>((resolve, reject) => {
        let seen = '';
        child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
          seen += chunk;
          if (seen.includes('serving')) resolve();
        });
        child.once('exit', () => reject(new Error(`worker exited: ${seen}`)));
      });
    }),
  );
  return {
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

/** Cases measured so far (names the warm-up files). */
let measured = 0;

interface Case {
  readonly name: string;
  readonly config: TrajectoryJobConfig;
  readonly concurrency: number;
}

/**
 * One case: the single-process runner, then the queue with 1, 2 and 4 worker processes on this machine. Each
 * queue run is preceded by a small warm-up run on the same workers (they load the tokenizer on their first job),
 * so the figures are the steady state of a long run; the submitter runs in this process.
 */
async function measure(dir: string, redis: TestRedis, input: string, count: number, item: Case) {
  const rows: BenchRow[] = [];
  measured++;
  const warmup = join(dir, `warmup-${measured}.jsonl`);
  writeFileSync(warmup, `${readFileSync(input, 'utf8').split('\n').slice(0, 20).join('\n')}\n`);
  let local = 0;
  const localSeconds = await seconds(() =>
    runTrajectories({
      inputs: [input],
      cwd: dir,
      out: join(dir, `${item.name}-local`),
      config: item.config,
      concurrency: item.concurrency,
      workers: 0,
      resume: false,
    }),
  );
  local = count / localSeconds;
  rows.push({
    suite: SUITE,
    case: `${item.name}: single-process runner`,
    figures: { trajectories: count, 'trajectories/s': round(local, 1), 'vs single process': 1 },
  });
  for (const workers of [1, 2, 4]) {
    const queueName = `bench-${item.name}-${workers}`.replace(/[^\w-]/g, '-');
    const running = await startWorkers(redis, queueName, workers, item.concurrency);
    try {
      const run = (path: string, out: string) =>
        runTrajectories({
          inputs: [path],
          cwd: dir,
          out: join(dir, out),
          config: item.config,
          resume: false,
          dispatcher: createQueueDispatcher({ url: redis.url, queueName }),
        });
      await run(warmup, `${queueName}-warmup`);
      const elapsed = await seconds(() => run(input, queueName));
      const rate = count / elapsed;
      rows.push({
        suite: SUITE,
        case: `${item.name}: queue, ${workers} worker process${workers === 1 ? '' : 'es'}`,
        figures: {
          trajectories: count,
          'trajectories/s': round(rate, 1),
          'vs single process': round(rate / local, 2),
        },
      });
    } finally {
      await running.stop();
    }
  }
  return rows;
}

const suite: BenchSuite = {
  name: SUITE,
  async run() {
    if (REDIS_SKIP_REASON !== undefined) {
      process.stderr.write(`queue suite skipped: ${REDIS_SKIP_REASON}\n`);
      return [];
    }
    const dir = mkdtempSync(join(tmpdir(), 'condense-bench-queue-'));
    const redis = await startRedis();
    const server = await startLoopbackProvider({
      script: () => ({ text: 'The agent looked up the reservation.', delayMs: LATENCY_MS }),
    });
    try {
      const { lines, source } = dataset();
      const input = join(dir, 'runs.jsonl');
      writeFileSync(input, `${lines.join('\n')}\n`);
      const extractive: Case = {
        name: `extractive, o200k (${source})`,
        config: { settings: SETTINGS, tokenizer: 'o200k_base', cwd: dir },
        concurrency: 50,
      };
      // Light CPU work (rough tokens, small generated runs that all need a summary), so the model's latency is the
      // bound and the figures show how entries in flight scale with processes.
      const small = join(dir, 'small.jsonl');
      writeFileSync(
        small,
        `${Array.from({ length: 600 }, (_, index) => shareGptLine(index, 12)).join('\n')}\n`,
      );
      const model: Case = {
        name: `loopback model ${LATENCY_MS} ms, ${MODEL_CONCURRENCY} in flight per process (generated, rough tokens)`,
        config: {
          settings: { targetMaxTokens: 600, summaryTargetTokens: 100 },
          tokenizer: 'rough',
          cwd: dir,
          model: { spec: 'openai-compatible:bench', baseUrl: `${server.url}/v1`, maxRetries: 0 },
        },
        concurrency: MODEL_CONCURRENCY,
      };
      return [
        ...(await measure(dir, redis, input, lines.length, extractive)),
        ...(await measure(dir, redis, small, 600, model)),
      ];
    } finally {
      await server.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
