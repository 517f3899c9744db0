import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACT_KINDS, type ArtifactKind } from '../src/inspect/artifacts.js';
import { createRoughCounter } from '../src/tokens/rough-counter.js';
import { checkpointQualitySection } from './eval/checkpoint-section.js';
import { corpusTranscripts, isBaselineSelection } from './eval/corpus-transcripts.js';
import { ENGINES } from './eval/engines.js';
import { type Measurement, measure } from './eval/measure.js';

/** `npm run eval`: compression quality of every engine on every corpus transcript, as Markdown tables. */
const counter = createRoughCounter();
const transcripts = corpusTranscripts();
const tokensOf = new Map(transcripts.map((item) => [item, counter.countTranscript(item.transcript)]));
const baseline = new Set(
  transcripts.filter((item) => isBaselineSelection(item, transcripts, (other) => tokensOf.get(other) ?? 0)),
);
const resultsDir = join(fileURLToPath(new URL('.', import.meta.url)), 'results');
mkdirSync(resultsDir, { recursive: true });
const sections: string[] = [];
const summary: Record<string, unknown> = {};

for (const engine of ENGINES) {
  const rows: {
    group: string;
    file: string;
    tools: boolean;
    baseline: boolean;
    measurement: Measurement;
    milliseconds: number;
  }[] = [];
  for (const item of transcripts) {
    const tokens = counter.countTranscript(item.transcript);
    const contextLength = Math.max(8_000, Math.floor(tokens / 2));
    const start = performance.now();
    const output = await engine.run(item.transcript, contextLength);
    const milliseconds = performance.now() - start;
    rows.push({
      group: item.group,
      file: `${item.file}#${item.index}`,
      baseline: baseline.has(item),
      tools: item.transcript.messages.some((message) =>
        message.parts.some((part) => part.type === 'tool-call'),
      ),
      measurement: measure(item.transcript, output, counter),
      milliseconds,
    });
  }
  const groups = [
    'all',
    'agent runs (with tool calls)',
    'baseline 60',
    ...new Set(rows.map((row) => row.group)),
  ];
  const table = [
    `### ${engine.name}`,
    '',
    engine.description,
    '',
    '| group | transcripts | reduction mean / median | bigger | retention pooled | paths | urls | commands | error lines | tool names | valid | latest request kept | system kept | ms mean |',
    '|---|---:|---|---:|---:|---|---|---|---|---|---:|---:|---:|---:|',
  ];
  for (const group of groups) {
    const selected = rows.filter(
      (row) =>
        group === 'all' ||
        row.group === group ||
        (group.startsWith('agent') && row.tools) ||
        (group === 'baseline 60' && row.baseline),
    );
    table.push(renderRow(group, selected));
    if (group === 'all')
      summary[engine.name] = {
        all: aggregate(selected),
        agentRuns: aggregate(rows.filter((row) => row.tools)),
        baseline60: aggregate(rows.filter((row) => row.baseline)),
      };
  }
  const misses = rows.flatMap((row) => row.measurement.missing.map((missing) => `${row.file}: ${missing}`));
  table.push(
    '',
    `Artifacts lost (first 15 of ${misses.length}):`,
    '',
    ...misses.slice(0, 15).map((miss) => `- \`${miss.slice(0, 160).replaceAll('`', "'")}\``),
  );
  sections.push(table.join('\n'));
  writeFileSync(join(resultsDir, `eval-${engine.name}.md`), `${table.join('\n')}\n`);
}

const checkpoints = await checkpointQualitySection(counter);
sections.push(checkpoints.markdown);
summary['checkpointQuality'] = checkpoints.summary;

const header = `# Compression quality on the corpus\n\nCommand: \`npm run eval\`. Each transcript with at least 6 messages, context length = max(8,000, half its rough tokens), compaction forced. Tokens: condense's calibrated rough counter. Goals on the baseline 60 (issue 12): error lines kept >= 90 %, pooled retention >= 95 %, mean reduction >= 30 %, none bigger.\n`;
const markdown = `${header}\n${sections.join('\n\n')}\n`;
writeFileSync(join(resultsDir, 'eval.md'), markdown);
writeFileSync(join(resultsDir, 'eval.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(markdown);

function aggregate(rows: readonly { measurement: Measurement; milliseconds: number }[]) {
  const reductions = rows.map((row) => row.measurement.reduction).sort((left, right) => left - right);
  const sum = (kind: ArtifactKind, field: 'atRisk' | 'retained') =>
    rows.reduce((total, row) => total + row.measurement[field][kind], 0);
  const atRisk = ARTIFACT_KINDS.reduce((total, kind) => total + sum(kind, 'atRisk'), 0);
  const retained = ARTIFACT_KINDS.reduce((total, kind) => total + sum(kind, 'retained'), 0);
  return {
    transcripts: rows.length,
    reductionMean: mean(reductions),
    reductionMedian: reductions[Math.floor(reductions.length / 2)] ?? 0,
    bigger: rows.filter((row) => row.measurement.tokensAfter > row.measurement.tokensBefore).length,
    retention: atRisk === 0 ? 1 : retained / atRisk,
    byKind: Object.fromEntries(
      ARTIFACT_KINDS.map((kind) => [kind, { atRisk: sum(kind, 'atRisk'), retained: sum(kind, 'retained') }]),
    ),
    valid: rows.filter((row) => row.measurement.valid).length,
    latestRequestKept: rows.filter((row) => row.measurement.latestRequestKept).length,
    withSystem: rows.filter((row) => row.measurement.systemKept !== undefined).length,
    systemKept: rows.filter((row) => row.measurement.systemKept === true).length,
    millisecondsMean: mean(rows.map((row) => row.milliseconds)),
  };
}

function renderRow(
  group: string,
  rows: readonly { measurement: Measurement; milliseconds: number }[],
): string {
  const figures = aggregate(rows);
  const percent = (value: number) => `${(100 * value).toFixed(1)} %`;
  const kind = (name: ArtifactKind) => {
    const { atRisk, retained } = figures.byKind[name] as { atRisk: number; retained: number };
    return atRisk === 0 ? '–' : `${percent(retained / atRisk)} (${retained}/${atRisk})`;
  };
  return `| ${group} | ${figures.transcripts} | ${percent(figures.reductionMean)} / ${percent(figures.reductionMedian)} | ${figures.bigger} | ${percent(figures.retention)} | ${ARTIFACT_KINDS.map(kind).join(' | ')} | ${figures.valid}/${figures.transcripts} | ${figures.latestRequestKept}/${figures.transcripts} | ${figures.systemKept}/${figures.withSystem} | ${figures.millisecondsMean.toFixed(1)} |`;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length;
}
