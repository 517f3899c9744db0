import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeDocument } from '../src/codecs/registry.js';
import type { FormatName } from '../src/model/format.js';
import { builtinRules, createRedactor, redactDocument } from '../src/redact/index.js';
import { adversarialInputs } from '../test/redact/adversarial.js';
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
    const redactor = createRedactor({ codeFile });
    const ms = await timeMedian(() => {
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
  const redactor = createRedactor();
  families.push({ name: 'redactText (all rules)', run: (text) => redactor.text(text) });
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

const suite: BenchSuite = {
  name: SUITE,
  async run() {
    return [...(await corpusRows()), ...(await adversarialRows())];
  },
};

export default suite;
