import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessExecutor, type EntryExecutor } from '../src/batch/entry-executor.js';
import { runTrajectories } from '../src/batch/run-trajectories.js';
import type { TrajectoryJobConfig } from '../src/batch/trajectory-job.js';
import { createTrajectoryRuntime } from '../src/batch/trajectory-runtime.js';
import { createWorkerPool } from '../src/batch/worker-pool.js';
import { documentTranscripts } from '../src/codecs/document.js';
import { decodeDocument, getCodec } from '../src/codecs/registry.js';
import { createSummarizerChain } from '../src/summarizer/chain/summarizer-chain.js';
import { createExtractiveSummarizer } from '../src/summarizer/extractive/extractive-summarizer.js';
import { createModelSummarizer } from '../src/summarizer/model/model-summarizer.js';
import { startLoopbackProvider } from '../src/testing.js';
import { createTokenCounter } from '../src/tokens/create-token-counter.js';
import { CORPUS_DIR } from '../test/support/corpus.js';
import { type BenchRow, type BenchSuite, megabytesPerSecond, round, timeMedian } from './harness.js';

const SUITE = 'trajectory';
const TAU = join(CORPUS_DIR, 'openai', 'sierra-research__tau-bench__gpt-4o-airline.json');
/** Fixed latency of the loopback model, in milliseconds. */
const LATENCY_MS = 100;
const SETTINGS = { targetMaxTokens: 2000, summaryTargetTokens: 250 };

/** tau-bench's 200 OpenAI runs as Hermes ShareGPT lines (our own codecs), and the transcripts. */
function dataset() {
  const sharegpt = getCodec('sharegpt');
  const transcripts = documentTranscripts(decodeDocument(readFileSync(TAU, 'utf8')));
  const lines = transcripts.map((transcript) =>
    JSON.stringify(
      sharegpt.encode({
        messages: transcript.messages,
        meta: { codec: { sharegpt: { fields: { conversations: null, model: 'gpt-4o', completed: true } } } },
      }),
    ),
  );
  return { lines, transcripts };
}

async function seconds(task: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await task();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * Model-bound throughput: every compressible run needs one summary, the loopback model answers after a fixed
 * 100 ms, and the runner keeps `concurrency` entries in flight. Throughput should approach
 * concurrency ÷ latency until the entries run out.
 */
async function modelScaling(dir: string, lines: readonly string[]): Promise<BenchRow[]> {
  const counter = await createTokenCounter('o200k_base');
  // Keep only runs that need a summary, so every entry makes exactly one model call.
  const compressible = lines.filter((line) => {
    const transcript = getCodec('sharegpt').decode(JSON.parse(line)).value;
    return counter.countTranscript(transcript) > SETTINGS.targetMaxTokens * 1.3;
  });
  const pool = [...compressible, ...compressible].slice(0, 192);
  const fileFor = (count: number): { path: string; entries: readonly string[] } => {
    const entries = pool.slice(0, count);
    const path = join(dir, `model-${count}.jsonl`);
    writeFileSync(path, `${entries.join('\n')}\n`);
    return { path, entries };
  };
  const server = await startLoopbackProvider({
    script: () => ({ text: 'The agent looked up the reservation.', delayMs: LATENCY_MS }),
  });
  const rows: BenchRow[] = [];
  try {
    for (const concurrency of [1, 4, 16, 64]) {
      // Enough entries for the pipeline to fill: eight rounds of the concurrency, at least 32, at most 192.
      const { path, entries } = fileFor(Math.min(192, Math.max(32, concurrency * 8)));
      const model = createModelSummarizer({
        model: 'openai-compatible:bench',
        baseUrl: `${server.url}/v1`,
        maxRetries: 0,
      });
      const chain = createSummarizerChain({
        summary: model,
        extractive: createExtractiveSummarizer(),
        now: Date.now,
      });
      const config: TrajectoryJobConfig = { settings: SETTINGS, tokenizer: 'o200k_base', cwd: dir };
      const elapsed = await seconds(() =>
        runTrajectories({
          inputs: [path],
          cwd: dir,
          out: join(dir, `model-${concurrency}`),
          config,
          concurrency,
          runtime: { counter, chain },
          resume: false,
        }),
      );
      const ideal = Math.min(concurrency, entries.length) / (LATENCY_MS / 1000);
      const rate = entries.length / elapsed;
      rows.push({
        suite: SUITE,
        case: `loopback model ${LATENCY_MS} ms, concurrency ${concurrency}`,
        figures: {
          trajectories: entries.length,
          'trajectories/s': round(rate, 1),
          'ideal/s (concurrency ÷ latency)': round(ideal, 1),
          'of ideal %': round((rate / ideal) * 100, 0),
        },
      });
    }
    // The same at the highest concurrency with the CPU work (and the model calls) spread over two workers.
    const { path, entries } = fileFor(192);
    const config: TrajectoryJobConfig = {
      settings: SETTINGS,
      tokenizer: 'o200k_base',
      cwd: dir,
      model: { spec: 'openai-compatible:bench', baseUrl: `${server.url}/v1`, maxRetries: 0 },
    };
    const elapsed = await seconds(() =>
      runTrajectories({
        inputs: [path],
        cwd: dir,
        out: join(dir, 'model-workers'),
        config,
        concurrency: 64,
        workers: 2,
        resume: false,
      }),
    );
    const rate = entries.length / elapsed;
    rows.push({
      suite: SUITE,
      case: `loopback model ${LATENCY_MS} ms, concurrency 64, 2 worker threads (incl. start-up)`,
      figures: {
        trajectories: entries.length,
        'trajectories/s': round(rate, 1),
        'ideal/s (concurrency ÷ latency)': 640,
        'of ideal %': round((rate / 640) * 100, 0),
      },
    });
  } finally {
    await server.close();
  }
  return rows;
}

/** Exact token counting of every turn of the 200 runs (a fresh counter each time: no cache hits). */
async function counting(transcripts: ReturnType<typeof dataset>['transcripts']): Promise<BenchRow[]> {
  let tokens = 0;
  let characters = 0;
  for (const transcript of transcripts)
    for (const message of transcript.messages) characters += JSON.stringify(message.parts).length;
  const rows: BenchRow[] = [];
  for (const name of ['o200k_base', 'rough']) {
    const ms = await timeMedian(async () => {
      const counter = await createTokenCounter(name);
      tokens = 0;
      for (const transcript of transcripts)
        for (const message of transcript.messages) tokens += counter.countMessage(message);
    });
    rows.push({
      suite: SUITE,
      case: `count every turn of 200 tau-bench runs (${name})`,
      figures: {
        tokens,
        'tokens/s': Math.round(tokens / (ms / 1000)),
        'MB/s': megabytesPerSecond(characters, ms),
      },
    });
  }
  return rows;
}

/**
 * CPU-bound throughput: exact tokenizer and extractive summaries, on this thread and on 1 and 2 worker threads.
 * Start-up (building the counter, or starting the workers, each loading its tokenizer) is timed apart from the
 * steady state, which runs 1,800 entries (the 200 runs nine times) through the executor the runner uses.
 */
async function cpuScaling(dir: string, lines: readonly string[]): Promise<BenchRow[]> {
  const copies = Array.from({ length: 9 }, () => lines).flat();
  const jobs = copies.map((text, index) => ({
    id: index,
    format: 'sharegpt' as const,
    text,
    line: index + 1,
  }));
  const config: TrajectoryJobConfig = { settings: SETTINGS, tokenizer: 'o200k_base', cwd: dir };
  const rows: BenchRow[] = [];
  for (const workers of [0, 1, 2]) {
    let executor: EntryExecutor | undefined;
    const startup = await seconds(async () => {
      executor =
        workers === 0
          ? createInProcessExecutor(await createTrajectoryRuntime(config), config, 300_000)
          : await createWorkerPool({ size: workers, config, timeoutMs: 300_000 });
    });
    const pool = executor as EntryExecutor;
    let compressed = 0;
    const steady = await seconds(async () => {
      const results = await Promise.all(jobs.map((job) => pool.run(job)));
      compressed = results.filter((result) => result.outcome === 'compressed').length;
    });
    await pool.close();
    rows.push({
      suite: SUITE,
      case: `extractive, o200k_base, ${workers === 0 ? 'main thread only' : `${workers} worker thread${workers > 1 ? 's' : ''}`}`,
      figures: {
        trajectories: copies.length,
        compressed,
        'trajectories/s': round(copies.length / steady, 1),
        'start-up s': round(startup, 2),
      },
    });
  }
  return rows;
}

const suite: BenchSuite = {
  name: SUITE,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'condense-bench-trajectory-'));
    try {
      const { lines, transcripts } = dataset();
      return [
        ...(await counting(transcripts)),
        ...(await modelScaling(dir, lines)),
        ...(await cpuScaling(dir, lines)),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
