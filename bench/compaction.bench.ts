import { documentTranscripts } from '../src/codecs/document.js';
import { decodeDocument, encodeDocument } from '../src/codecs/registry.js';
import { isContextOverflow } from '../src/engines/budget-error.js';
import { createCompressor } from '../src/engines/compressor/create-compressor.js';
import type { Message } from '../src/model/message.js';
import type { Transcript } from '../src/model/transcript.js';
import { buildCodingSession } from '../src/testing/transcript-builders.js';
import { createRoughCounter } from '../src/tokens/rough-counter.js';
import { corpusFiles, readCorpusFile } from '../test/support/corpus.js';
import { type BenchRow, type BenchSuite, megabytesPerSecond, round, timeMedian } from './harness.js';

const counter = createRoughCounter();

function contextFor(transcript: Transcript): number {
  return Math.max(8_000, Math.floor(counter.countTranscript(transcript) / 2));
}

async function compactOnce(
  transcript: Transcript,
  contextLength = contextFor(transcript),
): Promise<Transcript> {
  try {
    return (await createCompressor({ contextLength }).compress(transcript, { force: true })).transcript;
  } catch (error) {
    // A transcript whose system prompt and request alone pass the window: the smallest result is the work done.
    if (isContextOverflow(error)) return error.details.best.transcript;
    throw error;
  }
}

/** A coding session of about `messages` messages (each step is an assistant call and its result). */
function session(messages: number): Transcript {
  return buildCodingSession({ steps: Math.max(1, Math.floor(messages / 2)) });
}

/** Compaction speed of the compressor engine with its extractive checkpoint (no model): corpus, scale, increments. */
const suite: BenchSuite = {
  name: 'compaction (compressor, extractive checkpoint)',
  async run() {
    const rows: BenchRow[] = [];
    const corpus: Transcript[] = [];
    let bytes = 0;
    for (const dir of ['anthropic', 'claude-code', 'openai'] as const) {
      for (const file of corpusFiles(dir)) {
        const document = decodeDocument(readCorpusFile(file));
        for (const transcript of documentTranscripts(document)) {
          corpus.push(transcript);
          bytes += Buffer.byteLength(
            encodeDocument({
              format: document.format,
              layout: 'json',
              entries: [{ kind: 'transcript', transcript }],
            }),
          );
        }
      }
    }
    // Every run (the warm-up too) compacts its own deep copy of the corpus, made before the clock starts: the
    // engines keep some answers per message object, and the same objects again would measure a warm cache.
    const copies = Array.from({ length: 4 }, () => structuredClone(corpus));
    let next = 0;
    const whole = await timeMedian(
      async () => {
        for (const transcript of copies[next++] ?? corpus) await compactOnce(transcript);
      },
      { repeat: 3 },
    );
    copies.length = 0;
    rows.push({
      suite: 'compaction',
      case: `corpus: ${corpus.length} transcripts, ${round(bytes / 1e6)} MB`,
      figures: {
        'MB/s': megabytesPerSecond(bytes, whole),
        'ms total': round(whole),
        'ms per MB': round(whole / (bytes / 1e6)),
      },
    });
    const bySize = new Map<number, { wall: number; cpu: number }>();
    for (const size of [1_000, 10_000, 100_000]) {
      const transcript = session(size);
      const megabytes = Buffer.byteLength(JSON.stringify(transcript.messages)) / 1e6;
      const contextLength = contextFor(transcript);
      const first = await wallAndCpu(
        () => session(size),
        (fresh) => compactOnce(fresh, contextLength),
      );
      bySize.set(size, first);
      rows.push({
        suite: 'compaction',
        case: `${transcript.messages.length} messages (${round(megabytes)} MB)`,
        figures: {
          'ms total': round(first.wall),
          'CPU ms': round(first.cpu),
          'µs per message': round((1000 * first.wall) / transcript.messages.length),
          'MB/s': megabytesPerSecond(megabytes * 1e6, first.wall),
        },
      });
    }
    const small = bySize.get(10_000);
    const large = bySize.get(100_000);
    if (small !== undefined && large !== undefined) {
      rows.push({
        suite: 'compaction',
        case: 'growth 10 k → 100 k messages (goal ≤ ×12)',
        figures: { 'wall ×': round(large.wall / small.wall), 'CPU ×': round(large.cpu / small.cpu) },
      });
    }
    for (const size of [1_000, 10_000]) {
      const transcript = session(size);
      const contextLength = contextFor(transcript);
      const engine = createCompressor({ contextLength });
      const start = performance.now();
      const once = await engine.compress(transcript, { force: true });
      const firstMs = performance.now() - start;
      const grown = session(20).messages.slice(2) as Message[];
      const next: Transcript = { messages: [...once.transcript.messages, ...grown] };
      const secondStart = performance.now();
      await engine.compress(next, { force: true });
      const secondMs = performance.now() - secondStart;
      rows.push({
        suite: 'compaction',
        case: `second pass after +${grown.length} messages on ${transcript.messages.length}`,
        figures: {
          'first pass ms': round(firstMs),
          'second pass ms': round(secondMs),
          'second ÷ first': round(secondMs / firstMs),
        },
      });
    }
    return rows;
  },
};

export default suite;

/**
 * Median wall and CPU milliseconds of three runs after one warm-up, each on a new input from `make` (built before
 * the clock starts, so no run finds the answers an earlier one left per message object) and started on a
 * collected heap (the bench runs with `--expose-gc`), so every size is measured the same way and no run pays for
 * the garbage of the last.
 */
async function wallAndCpu<Input>(
  make: () => Input,
  task: (input: Input) => Promise<unknown>,
): Promise<{ wall: number; cpu: number }> {
  const collect = (globalThis as { gc?: () => void }).gc;
  await task(make());
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let run = 0; run < 3; run++) {
    const input = make();
    collect?.();
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await task(input);
    walls.push(performance.now() - start);
    const cpu = process.cpuUsage(cpuStart);
    cpus.push((cpu.user + cpu.system) / 1000);
  }
  const median = (values: number[]): number => values.sort((left, right) => left - right)[1] as number;
  return { wall: median(walls), cpu: median(cpus) };
}
