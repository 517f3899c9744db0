import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeChatMessages } from '../src/codecs/openai-chat/chat-messages.js';
import { createRoughCounter } from '../src/tokens/rough-counter.js';
import { type CorpusTranscript, corpusTranscripts, isBaselineSelection } from './eval/corpus-transcripts.js';
import { ENGINES } from './eval/engines.js';
import { type BenchRow, type BenchSuite, round } from './harness.js';

const SUITE = 'hermes';
const DRIVER = fileURLToPath(new URL('./peers/hermes/run_hermes.py', import.meta.url));
/** Timed runs per transcript and engine, after one warm-up; the median is kept. */
const RUNS = 5;
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

/** Median ms per transcript of condense's compressor as `npm run eval` runs it (forced, smallest result kept). */
async function condenseTimes(items: readonly Item[]): Promise<Map<string, number>> {
  const engine = ENGINES.find((candidate) => candidate.name === 'compressor-extractive');
  if (engine === undefined) throw new Error('the eval has no compressor-extractive engine');
  const out = new Map<string, number>();
  for (const item of items) {
    await engine.run(item.source.transcript, item.contextLength);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = process.hrtime.bigint();
      await engine.run(item.source.transcript, item.contextLength);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    out.set(item.id, median(times));
  }
  return out;
}

interface HermesLine {
  readonly id: string;
  readonly ms: readonly number[];
  readonly fallback_used: boolean;
}

interface HermesRun {
  readonly times: Map<string, number>;
  /** Transcripts on which Hermes inserted its deterministic fallback summary. */
  readonly fallbacks: Set<string>;
}

/** Median ms per transcript of Hermes' `compress()`, all transcripts in one Python process. */
function hermesTimes(items: readonly Item[], mode: Mode, hermesDir: string): HermesRun {
  const input = items
    .map((item) =>
      JSON.stringify({
        id: item.id,
        context_length: item.contextLength,
        messages: encodeChatMessages(item.source.transcript.messages, false),
      }),
    )
    .join('\n');
  const run = spawnSync(process.env['HERMES_PYTHON'] ?? 'python3', [DRIVER, mode, String(RUNS)], {
    input,
    env: { ...process.env, HERMES_AGENT_DIR: hermesDir },
    maxBuffer: 64 << 20,
  });
  if (run.status !== 0) throw new Error(`the Hermes driver failed (${mode}): ${run.stderr.toString()}`);
  const times = new Map<string, number>();
  const fallbacks = new Set<string>();
  for (const line of run.stdout.toString().split('\n')) {
    if (line.trim() === '') continue;
    const parsed = JSON.parse(line) as HermesLine;
    times.set(parsed.id, median(parsed.ms));
    if (parsed.fallback_used) fallbacks.add(parsed.id);
  }
  return { times, fallbacks };
}

function total(items: readonly Item[], times: ReadonlyMap<string, number>): number {
  return items.reduce((sum, item) => sum + (times.get(item.id) ?? Number.NaN), 0);
}

/**
 * In-process compaction of the eval's 60-transcript quality set by condense's compressor against Hermes-agent's
 * own `ContextCompressor.compress()` (forced, fresh compressor, summarizer stubbed: `fallback` = it fails and
 * Hermes writes its deterministic summary, `stub` = it returns a fixed text), on the same transcripts and
 * windows. Hermes is not part of condense: set `HERMES_AGENT_DIR` to a hermes-agent checkout (pinned commit in
 * `/work/shared/research/hermes.md`); without it the suite is skipped. condense is timed before and after Hermes
 * and the two totals are averaged, so a change of load during the run weighs on both sides.
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
    const before = await condenseTimes(items);
    const hermes = Object.fromEntries(
      MODES.map((mode) => [mode, hermesTimes(items, mode, hermesDir)]),
    ) as Record<Mode, HermesRun>;
    const after = await condenseTimes(items);
    const groups = ['all', ...new Set(items.map((item) => item.group))];
    return groups.map((group) => {
      const selected = items.filter((item) => group === 'all' || item.group === group);
      const condense = (total(selected, before) + total(selected, after)) / 2;
      const fallback = total(selected, hermes.fallback.times);
      const stub = total(selected, hermes.stub.times);
      return {
        suite: SUITE,
        case: `${group} (${selected.length} transcripts, ${selected.reduce((sum, item) => sum + item.source.transcript.messages.length, 0)} messages)`,
        figures: {
          'condense ms': round(condense, 1),
          'Hermes fallback ms': round(fallback, 1),
          'Hermes stub ms': round(stub, 1),
          'fallback ÷ condense': `${round(fallback / condense, 2)}×`,
          'stub ÷ condense': `${round(stub / condense, 2)}×`,
          'Hermes fallbacks (fallback mode)': selected.filter((item) =>
            hermes.fallback.fallbacks.has(item.id),
          ).length,
        },
      };
    });
  },
};

export default suite;
