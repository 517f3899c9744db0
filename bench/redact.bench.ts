import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeDocument, encodeDocument, readJsonLines } from '../src/codecs/registry.js';
import type { FormatName } from '../src/model/format.js';
import { builtinRules, createRedactor, type DocumentFinding, redactDocument } from '../src/redact/index.js';
import { redactJsonLines } from '../src/redact/redact-json-lines.js';
import { adversarialInputs } from '../test/redact/adversarial.js';
import { generateRedactionDataset } from '../test/redact/dataset.js';
import { CORPUS_DIR, HAS_CORPUS } from '../test/support/corpus.js';
import { type BenchRow, type BenchSuite, megabytesPerSecond, round, timeMedian } from './harness.js';

const SUITE = 'redact';

/** Sizes of the adversarial inputs: each 4× the previous, so linear code shows time ratios near 4. */
const SIZES = [10_000, 40_000, 160_000] as const;

interface CorpusFile {
  readonly format: FormatName;
  readonly text: string;
  readonly bytes: number;
}

function loadCorpus(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const dir of ['anthropic', 'claude-code', 'openai', 'sharegpt'] as const) {
    for (const name of readdirSync(join(CORPUS_DIR, dir)).sort()) {
      if (name.endsWith('.meta.json')) continue;
      const text = readFileSync(join(CORPUS_DIR, dir, name), 'utf8');
      files.push({ format: dir, text, bytes: Buffer.byteLength(text) });
    }
  }
  return files;
}

/** redactText over the raw text of every corpus file, and redactDocument over every decoded file. */
async function corpusRows(): Promise<BenchRow[]> {
  if (!HAS_CORPUS) return [];
  const files = loadCorpus();
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const rows: BenchRow[] = [];
  for (const codeFile of [false, true]) {
    // A fresh redactor each round: one that saw these texts would answer from its cache.
    const ms = await timeMedian(() => {
      const redactor = createRedactor({ codeFile });
      for (const file of files) redactor.text(file.text);
    });
    rows.push({
      suite: SUITE,
      case: `redactText, whole corpus text${codeFile ? ' (codeFile)' : ''}`,
      figures: { MB: round(bytes / 1e6), ms: round(ms), 'MB/s': megabytesPerSecond(bytes, ms) },
    });
  }
  const documents = files.map((file) => decodeDocument(file.text, { format: file.format }));
  const ms = await timeMedian(() => {
    for (const document of documents) redactDocument(document);
  });
  rows.push({
    suite: SUITE,
    case: 'redactDocument, every decoded corpus file',
    figures: { MB: round(bytes / 1e6), ms: round(ms), 'MB/s': megabytesPerSecond(bytes, ms) },
  });
  return rows;
}

/**
 * Every rule alone, and the whole pipeline, over every adversarial input at each size. Linear code takes
 * about 4× longer for 4× the input (`×4` columns); a backtracking blow-up would show 16× or worse.
 */
async function adversarialRows(): Promise<BenchRow[]> {
  const inputs = SIZES.map((size) => adversarialInputs(size));
  const families: { name: string; run: (text: string) => void }[] = builtinRules().map((rule) => ({
    name: `rule ${rule.name}`,
    run: (text: string) => rule.find(text, []),
  }));
  families.push({ name: 'redactText (all rules)', run: (text) => createRedactor().text(text) });
  const rows: BenchRow[] = [];
  for (const family of families) {
    const times: number[] = [];
    for (const set of inputs) {
      times.push(
        await timeMedian(
          () => {
            for (const input of set) family.run(input.text);
          },
          { repeat: 3 },
        ),
      );
    }
    const bytes = (size: number) => size * (inputs[0]?.length ?? 0);
    const figures: Record<string, number> = {};
    SIZES.forEach((size, index) => {
      figures[`MB/s @${size / 1000}k`] = megabytesPerSecond(bytes(size), times[index] ?? 0);
    });
    figures['×4 time'] = round((times[2] ?? 0) / (times[1] ?? 1));
    figures['×16 time'] = round((times[2] ?? 0) / (times[0] ?? 1));
    rows.push({ suite: SUITE, case: `adversarial: ${family.name}`, figures });
  }
  return rows;
}

/** Size of the generated dataset: the 10-50 MB JSONL files the issue measured `condense redact` on. */
const DATASET_BYTES = 50e6;

/** The peer of `condense redact`, end to end: read the file, `JSON.parse` + `JSON.stringify` every line, write. */
const PEER_SCRIPT = `
import { readFileSync, writeFileSync } from 'node:fs';
const out = [];
for (const line of readFileSync(process.argv[2], 'utf8').split('\\n'))
  if (line.trim() !== '') out.push(JSON.stringify(JSON.parse(line)));
writeFileSync(process.argv[3], out.join('\\n') + '\\n');
`;

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Wall time of a process run to completion, in milliseconds; throws when it fails. */
function timeProcess(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr.toString()}`);
  return ms;
}

function medianOf(times: number[]): number {
  times.sort((left, right) => left - right);
  return times[Math.floor(times.length / 2)] as number;
}

/**
 * `condense redact` of a generated realistic agent dataset (OpenAI JSONL, one run per line, ~1 secret per 50
 * tool outputs) against the peer that parses and re-serialises every line, measured in the same run: in
 * process (decode + redact + encode of the whole file, and a line at a time as the CLI does, vs parse +
 * stringify), and end to end through the CLI (vs a node script
 * that reads, parses and stringifies every line, and writes). The dataset is written to a temporary folder.
 */
async function datasetRows(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'condense-redact-bench-'));
  try {
    const text = generateRedactionDataset(DATASET_BYTES, 1);
    const file = join(dir, 'dataset.jsonl');
    writeFileSync(file, text);
    const bytes = statSync(file).size;
    const label = `generated dataset, ${round(bytes / 1e6, 1)} MB`;
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    gc();
    const peer = await timeMedian(
      () => {
        for (const line of lines) JSON.stringify(JSON.parse(line));
      },
      { repeat: 3 },
    );
    gc();
    const document = decodeDocument(text, { format: 'openai' });
    const decode = await timeMedian(() => decodeDocument(text, { format: 'openai' }), { repeat: 3 });
    gc();
    const redact = await timeMedian(() => redactDocument(document), { repeat: 3 });
    const redacted = redactDocument(document).document;
    gc();
    const encode = await timeMedian(() => encodeDocument(redacted), { repeat: 3 });
    const inProcess = decode + redact + encode;
    gc();
    // What the CLI does with a JSONL file of one transcript per line: read, redact and encode each line in turn.
    const lineAtATime = await timeMedian(
      () => {
        const reader = readJsonLines(text, { format: 'openai' });
        if (reader === undefined) throw new Error('the generated dataset is not read a line at a time');
        const findings: DocumentFinding[] = [];
        for (const _chunk of redactJsonLines(reader, findings)) {
          // Consumed as the CLI's writer consumes them; the bytes are not kept.
        }
      },
      { repeat: 3 },
    );
    const peerScript = join(dir, 'peer.mjs');
    writeFileSync(peerScript, PEER_SCRIPT);
    const cli = fileURLToPath(new URL('../bin/condense.js', import.meta.url));
    const out = join(dir, 'out.jsonl');
    const peerRuns: number[] = [];
    const cliRuns: number[] = [];
    for (let run = 0; run < 3; run++) {
      peerRuns.push(timeProcess([peerScript, file, out]));
      cliRuns.push(timeProcess([cli, 'redact', file, '-o', out]));
    }
    const peerEndToEnd = medianOf(peerRuns);
    const cliEndToEnd = medianOf(cliRuns);
    const row = (name: string, ms: number, peerMs: number): BenchRow => ({
      suite: SUITE,
      case: `${label} · ${name}`,
      figures: { ms: round(ms), 'MB/s': megabytesPerSecond(bytes, ms), 'vs peer': `${round(ms / peerMs)}×` },
    });
    return [
      row('in process: JSON.parse + JSON.stringify of each line (peer)', peer, peer),
      row('in process: redactDocument alone', redact, peer),
      row('in process: decode + redact + encode, whole file', inProcess, peer),
      row('in process: a line at a time, as the CLI does (read, redact, encode)', lineAtATime, peer),
      row('CLI end to end: node script, parse + stringify each line (peer)', peerEndToEnd, peerEndToEnd),
      row('CLI end to end: condense redact -o', cliEndToEnd, peerEndToEnd),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const suite: BenchSuite = {
  name: SUITE,
  async run() {
    return [...(await datasetRows()), ...(await corpusRows()), ...(await adversarialRows())];
  },
};

export default suite;
