import { join } from 'node:path';
import { compactOrSmallest } from '../../src/engines/best-effort.js';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import { type CheckpointQuality, checkpointQuality, realCompactions } from './checkpoint-quality.js';
import { CORPUS_DIR } from './corpus-transcripts.js';

/** The figures the checkpoint-quality section reports, for `eval.json`. */
export interface CheckpointQualitySummary {
  readonly compactions: number;
  /** Pooled share of the reference items carried by the checkpoint alone. */
  readonly inCheckpoint: number;
  /** Pooled share carried by the checkpoint or the messages kept verbatim. */
  readonly inKept: number;
  readonly currentRequestRight: number;
  readonly originalRequestRight: number;
  readonly originalRequestChecked: number;
  readonly overWindow: number;
  readonly perCompaction: readonly Omit<CheckpointQuality, 'missing'>[];
}

/**
 * Holds condense's default checkpoint against the summary Claude Code's own model wrote for the same stretch of
 * each real compaction in the corpus: which of the exact strings (paths, commands, identifiers, task ids,
 * errors) that summary names, and that occur in the conversation, condense keeps, and whether its request
 * sections hold the person's own words. The window is a quarter of the tokens Claude Code compacted, so most of
 * the stretch is folded into the checkpoint.
 */
export async function checkpointQualitySection(
  counter: TokenCounter,
): Promise<{ markdown: string; summary: CheckpointQualitySummary }> {
  const rows: { quality: CheckpointQuality; overWindow: boolean }[] = [];
  for (const compaction of realCompactions(join(CORPUS_DIR, 'claude-code'))) {
    const contextLength = Math.floor(compaction.preTokens / 4);
    const { result, overflow } = await compactOrSmallest(
      createCompressor({ contextLength }),
      compaction.input,
      { force: true },
    );
    const after = counter.countTranscript(result.transcript);
    rows.push({
      quality: checkpointQuality(
        compaction,
        result.transcript,
        contextLength,
        (text) => counter.countText(text),
        after,
      ),
      overWindow: overflow !== undefined,
    });
  }
  const items = rows.reduce((sum, row) => sum + row.quality.items, 0);
  const share = (field: 'inCheckpoint' | 'inKept') =>
    items === 0 ? 0 : rows.reduce((sum, row) => sum + row.quality[field], 0) / items;
  const checked = rows.filter((row) => row.quality.originalRequestRight !== undefined);
  const summary: CheckpointQualitySummary = {
    compactions: rows.length,
    inCheckpoint: share('inCheckpoint'),
    inKept: share('inKept'),
    currentRequestRight: rows.filter((row) => row.quality.currentRequestRight).length,
    originalRequestRight: checked.filter((row) => row.quality.originalRequestRight === true).length,
    originalRequestChecked: checked.length,
    overWindow: rows.filter((row) => row.overWindow).length,
    perCompaction: rows.map(({ quality: { missing: _missing, ...rest } }) => rest),
  };
  const percent = (value: number) => `${(100 * value).toFixed(1)} %`;
  const lines = [
    '### Checkpoints against Claude Code’s own summaries',
    '',
    `Each real compaction in \`claude-code/\` (a \`compact_boundary\` record with its summary), compacted by the compressor with its default extractive checkpoint at a window of a quarter of Claude Code’s \`preTokens\`. Items: the exact strings the reference summary names that occur in the conversation. Goals (issue 12): the checkpoint alone carries at least 50 % of them, checkpoint plus kept messages at least 80 %, and both request sections are the person’s own words in every case.`,
    '',
    '| session | context length | tokens after | items | in checkpoint | checkpoint + kept | current request right | original request right | checkpoint tokens |',
    '|---|---:|---:|---:|---:|---:|---|---|---:|',
    ...rows.map(({ quality: row }) => {
      const rate = (value: number) => (row.items === 0 ? '–' : percent(value / row.items));
      return `| ${row.file.slice(0, 48)} | ${row.contextLength} | ${row.tokensAfter} | ${row.items} | ${rate(row.inCheckpoint)} | ${rate(row.inKept)} | ${row.currentRequestRight ? 'yes' : 'no'} | ${row.originalRequestRight === undefined ? '–' : row.originalRequestRight ? 'yes' : 'no'} | ${row.checkpointTokens} |`;
    }),
    `| **pooled** | | | ${items} | ${percent(summary.inCheckpoint)} | ${percent(summary.inKept)} | ${summary.currentRequestRight}/${rows.length} | ${summary.originalRequestRight}/${summary.originalRequestChecked} | |`,
  ];
  if (summary.overWindow > 0)
    lines.push(
      '',
      `${summary.overWindow} compactions could not fit their window (smallest result measured).`,
    );
  return { markdown: lines.join('\n'), summary };
}
