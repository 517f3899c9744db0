import type { CompactionReport, TokenFigures } from '../engines/compaction-report.js';
import { escapeHtml, formatNumber } from './escape-html.js';

/** One row of the figures table: a label and its value, both plain text. */
export interface FigureRow {
  readonly label: string;
  readonly value: string;
}

/** The report's figures as table rows: every count the report carries, and why nothing happened when so. */
export function figureRows(report: CompactionReport): FigureRow[] {
  const rows: FigureRow[] = [
    { label: 'engine', value: report.engine },
    { label: 'outcome', value: outcome(report) },
    { label: 'tokens (rough)', value: arrow(report.tokensBefore.rough, report.tokensAfter.rough) },
  ];
  const exact = exactFigures(report.tokensBefore, report.tokensAfter);
  if (exact !== undefined) rows.push(exact);
  rows.push(
    { label: 'messages', value: arrow(report.messagesBefore, report.messagesAfter) },
    {
      label: 'saved',
      value: `${formatNumber(report.savings.tokens)} tokens (${report.savings.percent.toFixed(1)} %)`,
    },
  );
  if (report.boundaries !== undefined) {
    const { headEnd, tailStart } = report.boundaries;
    rows.push({
      label: 'boundaries',
      value: `head #0–#${headEnd - 1}, folded #${headEnd}–#${tailStart - 1}, tail from #${tailStart}`,
    });
  }
  rows.push({ label: 'checkpoint', value: summaryText(report) });
  if (report.rules === undefined) {
    const p = report.pruning;
    rows.push({
      label: 'pruning',
      value: `${p.digested} digested, ${p.deduplicated} deduplicated, ${p.argumentsShrunk} arguments shrunk, ${p.imagesStripped} images stripped`,
    });
  } else {
    const r = report.rules;
    rows.push({
      label: 'rules',
      value: `${r.collapsedPairs} tool pairs collapsed, ${r.truncatedOutputs} outputs truncated, ${r.droppedSystem} system messages dropped, ${r.mergedAssistant} assistant messages merged, ${r.heldBack} held back, ${r.references} references`,
    });
  }
  rows.push({ label: 'messages removed', value: formatNumber(report.dropped) });
  if (report.unchangedPrefix !== undefined)
    rows.push({ label: 'byte-identical prefix', value: `${report.unchangedPrefix} messages` });
  if (report.errors.length > 0) rows.push({ label: 'errors', value: report.errors.join('\n') });
  if (report.notes.length > 0) rows.push({ label: 'notes', value: report.notes.join('\n') });
  return rows;
}

/** The figures table. */
export function renderFigures(report: CompactionReport): string {
  const body = figureRows(report)
    .map((row) => `<tr><th scope="row">${escapeHtml(row.label)}</th><td>${escapeHtml(row.value)}</td></tr>`)
    .join('\n');
  return `<table class="figures"><caption class="muted">Report figures</caption>\n<tbody>\n${body}\n</tbody></table>`;
}

function outcome(report: CompactionReport): string {
  if (report.aborted) return `aborted: ${report.reason ?? 'the transcript is unchanged'}`;
  if (!report.madeProgress) return `no-op: ${report.reason ?? 'nothing was compacted'}`;
  return 'compacted';
}

function arrow(before: number, after: number): string {
  return `${formatNumber(before)} → ${formatNumber(after)}`;
}

function exactFigures(before: TokenFigures, after: TokenFigures): FigureRow | undefined {
  if (before.exact === undefined || after.exact === undefined) return undefined;
  return { label: `tokens (${before.counter ?? 'exact'})`, value: arrow(before.exact, after.exact) };
}

function summaryText(report: CompactionReport): string {
  const summary = report.summary;
  if (summary.source === 'none') return 'none written';
  const parts = [`source ${summary.source}`];
  if (summary.model !== undefined) parts.push(`model ${summary.model}`);
  parts.push(`${summary.calls} summarizer call${summary.calls === 1 ? '' : 's'}`);
  parts.push(`${formatNumber(summary.tokens)} tokens`);
  if (summary.updatedPrevious) parts.push('updated the previous checkpoint');
  return parts.join(', ');
}
