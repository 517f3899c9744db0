import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { encodeChatMessages } from '../src/codecs/openai-chat/chat-messages.js';
import { createCompressor } from '../src/engines/compressor/create-compressor.js';
import type { Transcript } from '../src/model/transcript.js';
import type { Summarizer } from '../src/summarizer/summarizer.js';
import { createRoughCounter } from '../src/tokens/rough-counter.js';
import { type CorpusTranscript, corpusTranscripts, isBaselineSelection } from './eval/corpus-transcripts.js';
import { ENGINES, type EvalEngine, smallest } from './eval/engines.js';
import { type BenchRow, type BenchSuite, round } from './harness.js';

const SUITE = 'hermes';
const DRIVER = fileURLToPath(new URL('./peers/hermes/run_hermes.py', import.meta.url));
/** Timed runs per transcript and engine, after one warm-up; the median is kept. */
const RUNS = 5;
/**
 * Untimed passes over the whole set before any timing, for every engine. V8 keeps optimizing condense's code
 * over the first passes (measured: about 150 ms for the first, 100–130 ms for the second, steady at about
 * 90–110 ms from the third), so fewer would time its compiler, not its compaction.
 */
const WARM_PASSES = 3;
const MODES = ['fallback', 'stub'] as const;
type Mode = (typeof MODES)[number];

interface Item {
  readonly id: string;
  readonly group: string;
  readonly source: CorpusTranscript;
  readonly contextLength: number;
}

/** The four kinds of run in the baseline 60 (research/baseline.md). */
function groupOf(item: CorpusTranscript): string {
  if (item.group === 'anthropic') return 'Claude Code sessions';
  if (item.file.includes('multi_swe_bench')) return 'OpenHands';
  if (item.file.startsWith('SWE-agent__')) return 'SWE-agent';
  return 'tau-bench airline';
}

/** The eval's 60-transcript quality set with the eval's window: max(8,000, half the rough tokens). */
function baselineItems(): Item[] {
  const counter = createRoughCounter();
  const all = corpusTranscripts();
  const tokens = new Map(all.map((item) => [item, counter.countTranscript(item.transcript)]));
  return all
    .filter((item) => isBaselineSelection(item, all, (other) => tokens.get(other) ?? 0))
    .map((source) => ({
      id: `${source.file}#${source.index}`,
      group: groupOf(source),
      source,
      contextLength: Math.max(8_000, Math.floor((tokens.get(source) ?? 0) / 2)),
    }));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** condense's compressor as `npm run eval` runs it: forced, and the smallest result kept if the window is missed. */
function condenseEngine(): EvalEngine {
  const engine = ENGINES.find((candidate) => candidate.name === 'compressor-extractive');
  if (engine === undefined) throw new Error('the eval has no compressor-extractive engine');
  return engine;
}

/** The text Hermes' stub mode returns, so both stub sides write the same checkpoint. */
const STUB_SUMMARY = 'STUB SUMMARY';

/** A summarizer that writes {@link STUB_SUMMARY} whatever the turns, as Hermes' stub mode does. */
const stubSummarizer: Summarizer = {
  name: 'stub',
  kind: 'extractive',
  summarize: async () => ({ text: STUB_SUMMARY, source: 'extractive', calls: 1 }),
};

/**
 * condense's compressor with the extractive checkpoint replaced by {@link stubSummarizer}: everything else it
 * does (pruning, digests, boundaries, token counting, the report) as in the eval. The like-for-like peer of
 * Hermes' stub mode, and what the checkpoint's own cost is measured against.
 */
const condenseStub: EvalEngine = {
  name: 'compressor-stub-checkpoint',
  description: 'The compressor engine writing a fixed checkpoint text.',
  run: (transcript, contextLength) =>
    smallest(createCompressor({ contextLength, extractive: stubSummarizer }), transcript),
};

/**
 * Fresh deep copies of a transcript for the timed runs: condense keeps some answers per message object (token
 * counts, artifacts, checkpoint recognition), so running the same objects again would measure a warm cache, not
 * a first compaction as Hermes' side does. They are made before the warm-up passes, so that by the time they are
 * compacted they live in V8's old generation like the transcript of a running agent, instead of being copied
 * by the young-generation collector during the timed runs.
 */
function timedCopies(item: Item): Transcript[] {
  return Array.from({ length: RUNS }, () => structuredClone(item.source.transcript));
}

/** Median ms of `engine` on one transcript's copies, after one warm-up run on a copy of its own. */
async function condenseMs(engine: EvalEngine, item: Item, copies: readonly Transcript[]): Promise<number> {
  await engine.run(structuredClone(item.source.transcript), item.contextLength);
  const times: number[] = [];
  for (const copy of copies) times.push(await runMs(engine, item, copy));
  return median(times);
}

/** Ms of one compaction of `copy` (by default a fresh copy, made before the clock starts). */
async function runMs(
  engine: EvalEngine,
  item: Item,
  copy: Transcript = structuredClone(item.source.transcript),
): Promise<number> {
  const start = process.hrtime.bigint();
  await engine.run(copy, item.contextLength);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

interface HermesAnswer {
  readonly id: string;
  readonly ms: readonly number[];
  readonly fallback_used: boolean;
}

/** One long-lived Python driver: a transcript goes in as a JSON line, its timings come back as one. */
class HermesDriver {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: { resolve(answer: HermesAnswer): void; reject(error: Error): void }[] = [];
  private stderr = '';

  constructor(mode: Mode, hermesDir: string) {
    this.child = spawn(process.env['HERMES_PYTHON'] ?? 'python3', [DRIVER, mode, String(RUNS)], {
      env: { ...process.env, HERMES_AGENT_DIR: hermesDir },
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.waiting.shift()?.resolve(JSON.parse(line) as HermesAnswer);
    });
    this.child.on('close', (code) => {
      for (const waiter of this.waiting.splice(0)) {
        waiter.reject(new Error(`the Hermes driver (${mode}) exited with ${code}: ${this.stderr}`));
      }
    });
  }

  /** Times `item` (a warm-up, then RUNS runs); with `warmOnly`, only the warm-up runs and `ms` is empty. */
  compress(item: Item, warmOnly = false): Promise<HermesAnswer> {
    const line = JSON.stringify({
      id: item.id,
      context_length: item.contextLength,
      messages: encodeChatMessages(item.source.transcript.messages, false),
      ...(warmOnly ? { runs: 0 } : {}),
    });
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${line}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}

interface Timing {
  readonly condense: number;
  /** condense with a fixed checkpoint text ({@link condenseStub}). */
  readonly condenseStub: number;
  /** condense's ms on this transcript in the first warm-up pass (one run, JIT still cold). */
  readonly firstPass: number;
  readonly fallback: number;
  readonly stub: number;
  readonly fallbackUsed: boolean;
}

function total(
  items: readonly Item[],
  timings: ReadonlyMap<string, Timing>,
  key: 'condense' | 'condenseStub' | 'firstPass' | Mode,
): number {
  return items.reduce((sum, item) => sum + (timings.get(item.id)?.[key] ?? Number.NaN), 0);
}

/**
 * In-process compaction of the eval's 60-transcript quality set by condense's compressor against Hermes-agent's
 * own `ContextCompressor.compress()` (forced, fresh compressor, summarizer stubbed: `fallback` = it fails and
 * Hermes writes its deterministic summary, `stub` = it returns a fixed text), on the same transcripts and
 * windows; and condense with a fixed checkpoint text as well, the like-for-like peer of Hermes' stub mode. Hermes
 * is not part of condense: set `HERMES_AGENT_DIR` to a hermes-agent tree of the pinned commit `c34b29d1` (see
 * research/hermes.md; the upstream repository is too large to fetch whole, so `git archive` that commit from the
 * fork colingreig/hermes-agent-upstream-contrib, which carries upstream history); without it the suite is
 * skipped. Each figure is a sum over the group of
 * per-transcript medians of 5 runs after a warm-up, once every engine has made {@link WARM_PASSES} untimed passes
 * over the set; `condense first pass` sums condense's single runs of the first of those passes.
 */
const suite: BenchSuite = {
  name: SUITE,
  async run(): Promise<BenchRow[]> {
    const hermesDir = process.env['HERMES_AGENT_DIR'];
    if (hermesDir === undefined || !existsSync(join(hermesDir, 'agent', 'context_compressor.py'))) {
      process.stderr.write(
        'hermes: skipped, HERMES_AGENT_DIR does not point at a hermes-agent checkout (agent/context_compressor.py); Hermes is a peer measured in place, not a dependency\n',
      );
      return [];
    }
    const items = baselineItems();
    if (items.length === 0) {
      process.stderr.write('hermes: skipped, the corpus is missing\n');
      return [];
    }
    const drivers = {
      fallback: new HermesDriver('fallback', hermesDir),
      stub: new HermesDriver('stub', hermesDir),
    };
    const timings = new Map<string, Timing>();
    const engine = condenseEngine();
    const copies = new Map(items.map((item) => [item.id, timedCopies(item)]));
    const stubCopies = new Map(items.map((item) => [item.id, timedCopies(item)]));
    // What the first pass costs condense, before V8 has optimized it: a one-shot process sees this.
    const firstPass = new Map<string, number>();
    try {
      for (let pass = 0; pass < WARM_PASSES; pass++) {
        for (const item of items) {
          const ms = await runMs(engine, item);
          if (pass === 0) firstPass.set(item.id, ms);
          await runMs(condenseStub, item);
          await drivers.fallback.compress(item, true);
          await drivers.stub.compress(item, true);
        }
      }
      // Turn by turn on each transcript, so a change of load on the shared machine weighs on every side alike.
      for (const item of items) {
        const condense = await condenseMs(engine, item, copies.get(item.id) ?? []);
        copies.delete(item.id);
        const condenseStubMs = await condenseMs(condenseStub, item, stubCopies.get(item.id) ?? []);
        stubCopies.delete(item.id);
        const fallback = await drivers.fallback.compress(item);
        const stub = await drivers.stub.compress(item);
        timings.set(item.id, {
          condense,
          condenseStub: condenseStubMs,
          firstPass: firstPass.get(item.id) ?? Number.NaN,
          fallback: median(fallback.ms),
          stub: median(stub.ms),
          fallbackUsed: fallback.fallback_used,
        });
      }
    } finally {
      drivers.fallback.close();
      drivers.stub.close();
    }
    const groups = ['all', ...new Set(items.map((item) => item.group))];
    return groups.map((group) => {
      const selected = items.filter((item) => group === 'all' || item.group === group);
      const condense = total(selected, timings, 'condense');
      const fallback = total(selected, timings, 'fallback');
      const stub = total(selected, timings, 'stub');
      const firstPass = total(selected, timings, 'firstPass');
      const condenseStubTotal = total(selected, timings, 'condenseStub');
      return {
        suite: SUITE,
        case: `${group} (${selected.length} transcripts, ${selected.reduce((sum, item) => sum + item.source.transcript.messages.length, 0)} messages)`,
        figures: {
          'condense ms': round(condense, 1),
          'Hermes fallback ms': round(fallback, 1),
          'Hermes stub ms': round(stub, 1),
          'fallback ÷ condense': `${round(fallback / condense, 2)}×`,
          'stub ÷ condense': `${round(stub / condense, 2)}×`,
          'condense stub ms': round(condenseStubTotal, 1),
          'Hermes stub ÷ condense stub': `${round(stub / condenseStubTotal, 2)}×`,
          'fallback ÷ condense stub': `${round(fallback / condenseStubTotal, 2)}×`,
          'condense first pass ms': round(firstPass, 1),
          'fallback ÷ first pass': `${round(fallback / firstPass, 2)}×`,
          'Hermes fallbacks (fallback mode)': selected.filter((item) => timings.get(item.id)?.fallbackUsed)
            .length,
        },
      };
    });
  },
};

export default suite;
