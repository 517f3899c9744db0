import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentTranscripts } from '../src/codecs/document.js';
import { decodeDocument, encodeDocument } from '../src/codecs/registry.js';
import { compactOrSmallest } from '../src/engines/best-effort.js';
import { createRuleEngine } from '../src/engines/rules/create-rule-engine.js';
import type { RuleEngineOptions } from '../src/engines/rules/options.js';
import { restoreTranscript } from '../src/engines/rules/restore-transcript.js';
import type { Transcript } from '../src/model/transcript.js';
import { createRoughCounter } from '../src/tokens/rough-counter.js';
import { CORPUS_DIR } from '../test/support/corpus.js';
import { type BenchRow, type BenchSuite, megabytesPerSecond, round, timeMedian } from './harness.js';

const SUITE = 'rules';
const GROUPS = ['claude-code', 'openai', 'anthropic', 'sharegpt'] as const;

interface CorpusFile {
  readonly group: string;
  readonly text: string;
  readonly bytes: number;
  readonly jsonl: boolean;
  readonly transcripts: readonly { readonly transcript: Transcript; readonly contextLength: number }[];
}

function loadCorpus(): CorpusFile[] {
  const counter = createRoughCounter();
  const files: CorpusFile[] = [];
  for (const group of GROUPS) {
    for (const name of readdirSync(join(CORPUS_DIR, group)).sort()) {
      if (name.endsWith('.meta.json')) continue;
      const text = readFileSync(join(CORPUS_DIR, group, name), 'utf8');
      const transcripts = documentTranscripts(decodeDocument(text, { fileName: name })).map((transcript) => ({
        transcript,
        // The evaluation's setting: a window half the transcript's size (compaction is forced anyway).
        contextLength: Math.max(8_000, Math.floor(counter.countTranscript(transcript) / 2)),
      }));
      files.push({
        group,
        text,
        bytes: Buffer.byteLength(text),
        jsonl: name.endsWith('.jsonl'),
        transcripts,
      });
    }
  }
  return files;
}

/** The floor of any rewrite: parse the wire text and serialise it again, nothing else. */
function jsonRoundTrip(files: readonly CorpusFile[]): void {
  for (const file of files) {
    if (!file.jsonl) {
      JSON.stringify(JSON.parse(file.text));
      continue;
    }
    for (const line of file.text.split('\n')) if (line.trim() !== '') JSON.stringify(JSON.parse(line));
  }
}

async function compactAll(files: readonly CorpusFile[], options: RuleEngineOptions): Promise<Transcript[]> {
  const out: Transcript[] = [];
  for (const file of files) {
    for (const { transcript, contextLength } of file.transcripts) {
      const engine = createRuleEngine({ ...options, contextLength });
      // A transcript the rules cannot bring inside its window still costs the work: its smallest result counts.
      out.push((await compactOrSmallest(engine, transcript, { force: true })).result.transcript);
    }
  }
  return out;
}

async function measure(label: string, files: readonly CorpusFile[]): Promise<BenchRow[]> {
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const floor = await timeMedian(() => jsonRoundTrip(files), { repeat: 5 });
  const rows: BenchRow[] = [
    {
      suite: SUITE,
      case: `${label} · JSON.parse + JSON.stringify (floor)`,
      figures: {
        MB: round(bytes / 1e6),
        ms: round(floor, 1),
        'MB/s': megabytesPerSecond(bytes, floor),
        'vs floor': '1.00×',
      },
    },
  ];
  const row = (name: string, ms: number): BenchRow => ({
    suite: SUITE,
    case: `${label} · ${name}`,
    figures: {
      MB: round(bytes / 1e6),
      ms: round(ms, 1),
      'MB/s': megabytesPerSecond(bytes, ms),
      'vs floor': `${round(ms / floor, 2)}×`,
    },
  });
  rows.push(
    row('rules, default preset (forced)', await timeMedian(() => compactAll(files, {}), { repeat: 3 })),
  );
  rows.push(
    row(
      'rules, strict preset (forced)',
      await timeMedian(() => compactAll(files, { preset: 'strict' }), { repeat: 3 }),
    ),
  );
  const outputs = await compactAll(files, {});
  const originals = files.flatMap((file) => file.transcripts.map((item) => item.transcript));
  rows.push(
    row(
      'restoreTranscript, restore all',
      await timeMedian(
        () => {
          outputs.forEach((output, index) => {
            restoreTranscript(output, originals[index] as Transcript);
          });
        },
        { repeat: 3 },
      ),
    ),
  );
  rows.push(
    row(
      'decode + rules + encode (end to end)',
      await timeMedian(
        async () => {
          for (const file of files) {
            const document = decodeDocument(file.text);
            const entries = [];
            for (const entry of document.entries) {
              if (entry.kind !== 'transcript') entries.push(entry);
              else {
                const engine = createRuleEngine({ contextLength: 8_000 });
                const { result } = await compactOrSmallest(engine, entry.transcript, { force: true });
                entries.push({ ...entry, transcript: result.transcript });
              }
            }
            encodeDocument({ ...document, entries });
          }
        },
        { repeat: 3 },
      ),
    ),
  );
  return rows;
}

const suite: BenchSuite = {
  name: 'rules engine throughput vs JSON.parse + JSON.stringify of the same transcripts',
  async run() {
    const files = loadCorpus();
    const rows = await measure('corpus', files);
    for (const group of GROUPS) {
      const selected = files.filter((file) => file.group === group);
      const bytes = selected.reduce((sum, file) => sum + file.bytes, 0);
      const floor = await timeMedian(() => jsonRoundTrip(selected), { repeat: 5 });
      const rules = await timeMedian(() => compactAll(selected, {}), { repeat: 3 });
      rows.push({
        suite: SUITE,
        case: `${group} · rules, default preset (forced)`,
        figures: {
          MB: round(bytes / 1e6),
          ms: round(rules, 1),
          'MB/s': megabytesPerSecond(bytes, rules),
          'vs floor': `${round(rules / floor, 2)}×`,
        },
      });
    }
    return rows;
  },
};

export default suite;
