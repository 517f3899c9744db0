import { afterAll, describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { ARTIFACT_KINDS, artifactCoverage, extractArtifacts } from '../../src/inspect/artifacts.js';
import { isNoisePath } from '../../src/summarizer/extractive/reference-items.js';
import { createExtractiveSummarizer } from '../../src/summarizer/index.js';
import { type CorpusDir, corpusFiles, readCorpusFile, shortName } from '../support/corpus.js';
import { counter } from './helpers.js';

/**
 * The extractive checkpoint of every corpus transcript's middle (messages [1, n-4), what a compaction with a
 * protected head and tail replaces), at the budget a Hermes-style engine gives it: 20 % of the middle, at
 * least 2,000 tokens. Every transcript must keep at least 95 % of its artifacts (paths in dependency folders and
 * assets aside: they go first), fit the budget, and come out smaller than the middle whenever the middle holds
 * more than a checkpoint's fixed cost.
 */
const summarizer = createExtractiveSummarizer();
const DIRS: readonly CorpusDir[] = ['anthropic', 'claude-code', 'openai', 'sharegpt'];
const MIN_MESSAGES = 6;
/** Below this the fixed cost of thirteen headings is most of the middle; an engine should not compact it. */
const MIN_REGION_FOR_SHRINK = 500;

interface Row {
  readonly name: string;
  readonly region: number;
  readonly output: number;
  readonly coverage: number;
  readonly total: number;
}

const rows: Row[] = [];
const pooled = Object.fromEntries(ARTIFACT_KINDS.map((kind) => [kind, { present: 0, total: 0 }])) as Record<
  (typeof ARTIFACT_KINDS)[number],
  { present: number; total: number }
>;

describe('extractive checkpoint on the corpus', () => {
  for (const dir of DIRS) {
    for (const file of corpusFiles(dir)) {
      it(`keeps the artifacts of ${dir}/${shortName(file)}`, async () => {
        const transcripts = documentTranscripts(decodeDocument(readCorpusFile(file)));
        for (const [index, transcript] of transcripts.entries()) {
          const count = transcript.messages.length;
          if (count < MIN_MESSAGES) continue;
          const middle = transcript.messages.slice(1, count - 4);
          const region = middle.reduce((sum, message) => sum + counter.countMessage(message), 0);
          const target = Math.max(2000, Math.floor(region * 0.2));
          const result = await summarizer.summarize({ messages: middle, targetTokens: target, counter });
          const artifacts = extractArtifacts(middle);
          // Paths in dependency folders and assets are what the budget gives up first.
          const kept = {
            ...artifacts,
            paths: new Set([...artifacts.paths].filter((path) => !isNoisePath(path))),
          };
          const coverage = artifactCoverage(kept, result.text);
          const output = counter.countText(result.text);
          const name = `${dir}/${shortName(file)}#${index}`;
          rows.push({ name, region, output, coverage: coverage.ratio, total: coverage.total });
          for (const kind of ARTIFACT_KINDS) {
            pooled[kind].present += coverage.byKind[kind].present;
            pooled[kind].total += coverage.byKind[kind].total;
          }
          expect(
            coverage.ratio,
            `${name}: missing ${JSON.stringify(coverage.byKind)}`,
          ).toBeGreaterThanOrEqual(0.95);
          expect(output, name).toBeLessThanOrEqual(target);
          if (region >= MIN_REGION_FOR_SHRINK) expect(output, name).toBeLessThan(region);
        }
      });
    }
  }

  afterAll(() => {
    if (rows.length === 0) return;
    const mean = (values: number[]) =>
      values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
    const large = rows.filter((row) => row.region >= MIN_REGION_FOR_SHRINK);
    const kinds = ARTIFACT_KINDS.map((kind) => `${kind} ${pooled[kind].present}/${pooled[kind].total}`).join(
      ', ',
    );
    console.log(
      [
        `extractive checkpoint over ${rows.length} corpus middles:`,
        `  coverage min ${Math.min(...rows.map((row) => row.coverage)).toFixed(3)}, pooled ${kinds}`,
        `  middles >= ${MIN_REGION_FOR_SHRINK} tokens: ${large.length}, checkpoint/middle mean ${mean(large.map((row) => row.output / row.region)).toFixed(3)}, max ${Math.max(...large.map((row) => row.output / row.region)).toFixed(3)}`,
        `  tokens: middles ${rows.reduce((sum, row) => sum + row.region, 0)}, checkpoints ${rows.reduce((sum, row) => sum + row.output, 0)}`,
        `  smaller middles (< ${MIN_REGION_FOR_SHRINK} tokens): ${rows.length - large.length}, of which the checkpoint is larger: ${rows.filter((row) => row.region < MIN_REGION_FOR_SHRINK && row.output >= row.region).length}`,
      ].join('\n'),
    );
  });
});
