import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import cl100kApi from 'gpt-tokenizer/encoding/cl100k_base';
import o200kApi from 'gpt-tokenizer/encoding/o200k_base';
import { documentTranscripts } from '../src/codecs/document.js';
import { decodeDocument } from '../src/codecs/registry.js';
import type { Transcript } from '../src/model/transcript.js';
import { createEncodingCounter } from '../src/tokens/encoding-counter.js';
import { estimateTextTokens } from '../src/tokens/estimate-text-tokens.js';
import { createRoughCounter } from '../src/tokens/rough-counter.js';
import { DEFAULT_SPLIT_LIMITS, sumOverPieces } from '../src/tokens/split-text.js';
import type { TokenCounter } from '../src/tokens/token-counter.js';
import { CORPUS_DIR, HAS_CORPUS } from '../test/support/corpus.js';
import { type BenchRow, type BenchSuite, megabytesPerSecond, round } from './harness.js';

const SUITE = 'tokens';

/** gpt-tokenizer's options for counting special-token text as text, as the exact counters do. */
const BARE = { disallowedSpecial: new Set<string>() };

interface CorpusFile {
  readonly name: string;
  readonly text: string;
  readonly bytes: number;
}

/** What the bench compares: characters ÷ 4, the rough estimator, and the two exact encodings. */
interface Counters {
  readonly rough: TokenCounter;
  readonly o200k: TokenCounter;
  readonly cl100k: TokenCounter;
}

function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

function timed<T>(task: () => T): { value: T; ms: number } {
  const start = now();
  const value = task();
  return { value, ms: now() - start };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function loadCorpus(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const dir of ['claude-code', 'openai', 'sharegpt', 'anthropic']) {
    for (const name of readdirSync(join(CORPUS_DIR, dir)).sort()) {
      if (name.endsWith('.meta.json')) continue;
      const text = readFileSync(join(CORPUS_DIR, dir, name), 'utf8');
      files.push({ name: `${dir}/${name}`, text, bytes: Buffer.byteLength(text) });
    }
  }
  return files;
}

/**
 * The exact counters' path before the pre-token cache: gpt-tokenizer's `countTokens` on each piece the splitter
 * cuts, its merge cache cleared every 65,536 characters so that it never fills.
 */
function piecewise(api: typeof o200kApi): (text: string) => number {
  let sinceClear = 0;
  return (text) =>
    sumOverPieces(text, DEFAULT_SPLIT_LIMITS, (piece) => {
      sinceClear += piece.length;
      if (sinceClear > 65_536) {
        api.clearMergeCache();
        sinceClear = piece.length;
      }
      return api.countTokens(piece, BARE);
    });
}

/** MB/s and Mtok/s of each counter over the raw text of every corpus file; per-file exact counts for later. */
function rawThroughput(
  files: readonly CorpusFile[],
  counters: Counters,
  rows: BenchRow[],
): Map<string, number[]> {
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const perFile = new Map<string, number[]>();
  const methods: [string, (text: string) => number][] = [
    ['chars/4', (text) => Math.ceil(text.length / 4)],
    ['rough', (text) => counters.rough.countText(text)],
    ['o200k_base', (text) => counters.o200k.countText(text)],
    ['gpt-tokenizer o200k_base on the same pieces (previous path)', piecewise(o200kApi)],
    ['cl100k_base', (text) => counters.cl100k.countText(text)],
    ['gpt-tokenizer cl100k_base on the same pieces (previous path)', piecewise(cl100kApi)],
    // The peers: gpt-tokenizer alone on the same texts (no pieces, no cache management), from a clear cache.
    ['gpt-tokenizer o200k_base (bare peer)', (text) => o200kApi.countTokens(text, BARE)],
    ['gpt-tokenizer cl100k_base (bare peer)', (text) => cl100kApi.countTokens(text, BARE)],
  ];
  const msOf = new Map<string, number>();
  for (const [name, count] of methods) {
    // Exact counting of 38 MB takes tens of seconds: one pass (encodings already loaded); estimators: median of 5.
    const passes = name.includes('_base') ? 1 : 5;
    o200kApi.clearMergeCache();
    cl100kApi.clearMergeCache();
    const times: number[] = [];
    let counts: number[] = [];
    for (let pass = 0; pass < passes; pass++) {
      const run = timed(() => files.map((file) => count(file.text)));
      times.push(run.ms);
      counts = run.value;
    }
    perFile.set(name, counts);
    const tokens = counts.reduce((sum, value) => sum + value, 0);
    const ms = median(times);
    msOf.set(name, ms);
    rows.push({
      suite: SUITE,
      case: `raw corpus (${files.length} files): ${name}`,
      figures: {
        MB: round(bytes / 1e6),
        ms: round(ms, 0),
        'MB/s': megabytesPerSecond(bytes, ms),
        'Mtok/s': round(tokens / 1e3 / ms, 2),
        tokens,
      },
    });
  }
  // The exact rows were measured before their peers: their ratio is added now.
  for (const row of rows) {
    const name = row.case.slice(row.case.lastIndexOf(': ') + 2);
    const peer = msOf.get(`gpt-tokenizer ${name} (bare peer)`);
    const previous = msOf.get(`gpt-tokenizer ${name} on the same pieces (previous path)`);
    const own = msOf.get(name);
    if (peer !== undefined && own !== undefined && row.case.startsWith('raw corpus')) {
      (row.figures as Record<string, number | string>)['peer ÷ this'] = `${round(peer / own, 2)}×`;
    }
    if (previous !== undefined && own !== undefined && row.case.startsWith('raw corpus')) {
      (row.figures as Record<string, number | string>)['previous ÷ this'] = `${round(previous / own, 2)}×`;
    }
  }
  return perFile;
}

type Kind =
  | 'prose'
  | 'code'
  | 'tool-call arguments (JSON)'
  | 'tool output'
  | 'reasoning'
  | 'base64 (signatures)';

/** Model-visible texts of the decoded corpus, by content kind; fenced code in messages counts as code. */
function textsByKind(transcripts: readonly Transcript[]): Map<Kind, string[]> {
  const kinds = new Map<Kind, string[]>();
  const add = (kind: Kind, text: string) => {
    if (text.length === 0) return;
    const list = kinds.get(kind);
    if (list === undefined) kinds.set(kind, [text]);
    else list.push(text);
  };
  for (const transcript of transcripts) {
    for (const message of transcript.messages) {
      for (const part of message.parts) {
        if (part.type === 'text') {
          part.text.split('```').forEach((piece, index) => {
            add(index % 2 === 1 ? 'code' : 'prose', piece);
          });
        } else if (part.type === 'tool-call') add('tool-call arguments (JSON)', part.arguments);
        else if (part.type === 'tool-result') {
          for (const inner of part.content) if (inner.type === 'text') add('tool output', inner.text);
        } else if (part.type === 'reasoning') {
          add('reasoning', part.text);
          if (part.signature !== undefined) add('base64 (signatures)', part.signature);
        }
      }
    }
  }
  return kinds;
}

/** Aggregate and per-text error of estimates against exact counts, in percent. */
function errorFigures(
  estimates: readonly number[],
  exact: readonly number[],
  label: string,
): Record<string, number> {
  let estimated = 0;
  let counted = 0;
  const perText: number[] = [];
  estimates.forEach((estimate, index) => {
    const tokens = exact[index] ?? 0;
    estimated += estimate;
    counted += tokens;
    if (tokens >= 20) perText.push(Math.abs(estimate - tokens) / tokens);
  });
  perText.sort((left, right) => left - right);
  const at = (quantile: number) =>
    round(100 * (perText[Math.floor(quantile * (perText.length - 1))] ?? 0), 1);
  return {
    [`${label} error %`]: round((100 * (estimated - counted)) / counted, 1),
    [`${label} median |err| %`]: at(0.5),
    [`${label} p90 |err| %`]: at(0.9),
  };
}

function estimatorError(
  name: string,
  texts: readonly string[],
  exact: { o200k: readonly number[]; cl100k: readonly number[] },
  rows: BenchRow[],
): void {
  const rough = texts.map((text) => estimateTextTokens(text));
  const quarter = texts.map((text) => Math.ceil(text.length / 4));
  rows.push({
    suite: SUITE,
    case: `rough vs exact: ${name} (${texts.length} texts)`,
    figures: {
      MB: round(texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6),
      ...errorFigures(rough, exact.o200k, 'rough/o200k'),
      'rough/cl100k error %': errorFigures(rough, exact.cl100k, 'x')['x error %'] ?? 0,
      'chars÷4/o200k error %': errorFigures(quarter, exact.o200k, 'x')['x error %'] ?? 0,
      'chars÷4/o200k p90 |err| %': errorFigures(quarter, exact.o200k, 'x')['x p90 |err| %'] ?? 0,
    },
  });
}

function decodeCorpus(files: readonly CorpusFile[]): Transcript[] {
  const transcripts: Transcript[] = [];
  for (const file of files) {
    try {
      for (const transcript of documentTranscripts(decodeDocument(file.text, { fileName: file.name }))) {
        if (transcript.messages.length > 0) transcripts.push(transcript);
      }
    } catch {
      // Files a codec cannot decode yet are measured as raw text only.
    }
  }
  return transcripts;
}

/** Counting whole decoded transcripts: speed per counter and the rough estimator's error per transcript. */
async function transcriptFigures(transcripts: readonly Transcript[], rows: BenchRow[]): Promise<void> {
  const messages = transcripts.reduce((sum, transcript) => sum + transcript.messages.length, 0);
  const totals: Record<string, number[]> = {};
  for (const name of ['rough', 'o200k_base', 'cl100k_base'] as const) {
    const counter = name === 'rough' ? createRoughCounter() : await createEncodingCounter(name);
    const run = timed(() => transcripts.map((transcript) => counter.countTranscript(transcript)));
    totals[name] = run.value;
    const tokens = run.value.reduce((sum, value) => sum + value, 0);
    rows.push({
      suite: SUITE,
      case: `decoded transcripts (${transcripts.length}, ${messages} messages): ${name}`,
      figures: { ms: round(run.ms, 0), 'Mtok/s': round(tokens / 1e3 / run.ms, 2), tokens },
    });
  }
  rows.push({
    suite: SUITE,
    case: `rough vs exact: whole transcripts (${transcripts.length})`,
    figures: {
      ...errorFigures(totals['rough'] ?? [], totals['o200k_base'] ?? [], 'rough/o200k'),
      'rough/cl100k error %':
        errorFigures(totals['rough'] ?? [], totals['cl100k_base'] ?? [], 'x')['x error %'] ?? 0,
    },
  });
}

function randomText(length: number, alphabet: string): string {
  let state = length | 0;
  let out = '';
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) | 0;
    out += alphabet[(state >>> 24) % alphabet.length];
  }
  return out;
}

/**
 * Counting time on inputs that make unguarded BPE super-linear: one long word, one long space run, random hex
 * and base64. Each size doubles the last; `× for 2× size` near 2 (and ns/byte flat) is linear.
 */
function pathological(counters: Counters, rows: BenchRow[]): void {
  const inputs: [string, (length: number) => string][] = [
    ['"a" run', (length) => 'a'.repeat(length)],
    ['space run', (length) => ' '.repeat(length)],
    ['random hex', (length) => randomText(length, '0123456789abcdef')],
    [
      'random base64',
      (length) => randomText(length, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
    ],
  ];
  for (const [name, make] of inputs) {
    const previous = new Map<string, number>();
    for (const kib of [256, 512, 1024]) {
      const text = make(kib * 1024);
      for (const [counterName, counter] of [
        ['o200k_base', counters.o200k],
        ['cl100k_base', counters.cl100k],
        ['rough', counters.rough],
      ] as const) {
        const run = timed(() => counter.countText(text));
        const ms = run.ms;
        const half = previous.get(counterName);
        previous.set(counterName, ms);
        rows.push({
          suite: SUITE,
          case: `pathological ${name} ${kib} KiB: ${counterName}`,
          figures: {
            ms: round(ms, 1),
            'MB/s': megabytesPerSecond(text.length, ms),
            'ns/byte': round((ms * 1e6) / text.length, 0),
            tokens: run.value,
            ...(half === undefined ? {} : { '× for 2× size': round(ms / half, 2) }),
          },
        });
      }
    }
  }
  // Reference: gpt-tokenizer on one unsplit run, the super-linear case the guard avoids.
  for (const [encoding, api, sizes] of [
    ['o200k_base', o200kApi, [16, 64]],
    ['cl100k_base', cl100kApi, [16]],
  ] as const) {
    for (const kib of sizes) {
      const text = 'a'.repeat(kib * 1024);
      api.clearMergeCache();
      const run = timed(() => api.countTokens(text, { disallowedSpecial: new Set() }));
      rows.push({
        suite: SUITE,
        case: `pathological "a" run ${kib} KiB: gpt-tokenizer ${encoding} unguarded`,
        figures: {
          ms: round(run.ms, 1),
          'MB/s': megabytesPerSecond(text.length, run.ms),
          'ns/byte': round((run.ms * 1e6) / text.length, 0),
          tokens: run.value,
        },
      });
    }
  }
}

/** Re-counting a transcript that grew by 10 messages, against counting it from scratch. */
async function recount(transcript: Transcript, rows: BenchRow[]): Promise<void> {
  const grown = 10;
  const before: Transcript = { messages: transcript.messages.slice(0, -grown) };
  for (const name of ['rough', 'o200k_base'] as const) {
    const make = async () => (name === 'rough' ? createRoughCounter() : await createEncodingCounter(name));
    const incremental: number[] = [];
    const scratch: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const warm = await make();
      warm.countTranscript(before);
      incremental.push(timed(() => warm.countTranscript(transcript)).ms);
      const cold = await make();
      scratch.push(timed(() => cold.countTranscript(transcript)).ms);
    }
    rows.push({
      suite: SUITE,
      case: `recount after +${grown} of ${transcript.messages.length} messages: ${name}`,
      figures: {
        ms: round(median(incremental), 3),
        'scratch ms': round(median(scratch), 2),
        'speedup ×': round(median(scratch) / Math.max(median(incremental), 1e-3), 0),
      },
    });
  }
}

const suite: BenchSuite = {
  name: SUITE,
  async run(): Promise<BenchRow[]> {
    if (!HAS_CORPUS) return [];
    const rows: BenchRow[] = [];
    const counters: Counters = {
      rough: createRoughCounter(),
      o200k: await createEncodingCounter('o200k_base'),
      cl100k: await createEncodingCounter('cl100k_base'),
    };
    const files = loadCorpus();
    const perFile = rawThroughput(files, counters, rows);
    const transcripts = decodeCorpus(files);
    if (transcripts.length > 0) await transcriptFigures(transcripts, rows);

    for (const [label, suffix] of [
      ['raw JSON files (pretty-printed)', '.json'],
      ['raw JSONL files (transcript records)', '.jsonl'],
    ] as const) {
      const indexes = files.flatMap((file, index) => (file.name.endsWith(suffix) ? [index] : []));
      const pick = (name: string) => indexes.map((index) => perFile.get(name)?.[index] ?? 0);
      estimatorError(
        label,
        indexes.map((index) => files[index]?.text ?? ''),
        { o200k: pick('o200k_base'), cl100k: pick('cl100k_base') },
        rows,
      );
    }
    const allTexts: string[] = [];
    const allExact = { o200k: [] as number[], cl100k: [] as number[] };
    for (const [kind, texts] of textsByKind(transcripts)) {
      const exact = {
        o200k: texts.map((text) => counters.o200k.countText(text)),
        cl100k: texts.map((text) => counters.cl100k.countText(text)),
      };
      estimatorError(kind, texts, exact, rows);
      if (kind !== 'base64 (signatures)') {
        allTexts.push(...texts);
        allExact.o200k.push(...exact.o200k);
        allExact.cl100k.push(...exact.cl100k);
      }
    }
    if (allTexts.length > 0) estimatorError('all model-visible text', allTexts, allExact, rows);

    pathological(counters, rows);
    const largest = [...transcripts].sort((left, right) => right.messages.length - left.messages.length)[0];
    if (largest !== undefined && largest.messages.length > 20) await recount(largest, rows);
    return rows;
  },
};

export default suite;
