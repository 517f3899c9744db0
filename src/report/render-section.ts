import type { CompactionReport } from '../engines/compaction-report.js';
import { describeCompaction } from '../engines/feedback.js';
import type { Message } from '../model/message.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { parseCheckpoint } from '../transforms/checkpoint-text.js';
import { type Classification, type ClassifiedMessage, classifyMessages } from './classify-messages.js';
import { escapeHtml, formatNumber } from './escape-html.js';
import { renderFigures } from './figures.js';
import { layoutRows } from './layout-rows.js';
import { cappedText } from './message-text.js';
import { renderLegend, renderMessage } from './render-message.js';
import type { ReportTranscript } from './report-input.js';

/** One transcript's section: verdict, figures, checkpoint, legend and the side-by-side messages. */
export function renderSection(entry: ReportTranscript, position: number, counter: TokenCounter): string {
  const before = entry.before.messages;
  const after = entry.after.messages;
  const classification = classifyMessages(before, after, entry.report);
  const tokensBefore = before.map((message) => counter.countMessage(message));
  const tokensAfter = after.map((message) => counter.countMessage(message));
  const scale = [...tokensBefore, ...tokensAfter].reduce((top, value) => Math.max(top, value), 1);
  const card = (
    items: readonly ClassifiedMessage[],
    tokens: readonly number[],
    index: number | undefined,
  ) => {
    const item = index === undefined ? undefined : items[index];
    return item === undefined ? '' : renderMessage(item, tokens[item.index] ?? 0, scale);
  };
  const cells = layoutRows(classification).map(
    (row) =>
      `<div class="cell before">${card(classification.before, tokensBefore, row.before)}</div>` +
      `<div class="cell after">${card(classification.after, tokensAfter, row.after)}</div>`,
  );
  const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
  const title = entry.title ?? `Transcript #${position}`;
  return [
    `<section class="transcript" id="t${position}" data-transcript="${position}">`,
    `<h2>${escapeHtml(title)}</h2>`,
    verdict(entry.report),
    `<div class="overview">${renderFigures(entry.report)}${renderCheckpoint(classification, after)}</div>`,
    renderLegend(),
    '<div class="columns">',
    `<div class="col-head before">Before · ${before.length} messages · ${formatNumber(sum(tokensBefore))} tokens</div>`,
    `<div class="col-head after">After · ${after.length} messages · ${formatNumber(sum(tokensAfter))} tokens</div>`,
    ...cells,
    '</div>',
    '</section>',
  ].join('\n');
}

/** The headline: what the pass did, or clearly that it did nothing and why. */
function verdict(report: CompactionReport): string {
  const described = describeCompaction(report);
  const kind = report.aborted ? 'aborted' : report.madeProgress ? 'progress' : 'noop';
  const details = [described.tokenLine];
  if (kind !== 'progress' && report.reason !== undefined) details.push(`Why: ${report.reason}`);
  if (described.note !== undefined) details.push(described.note);
  const lines = details.map((line) => `<span class="detail">${escapeHtml(line)}</span>`).join('');
  const headline = kind === 'noop' ? `No-op — ${described.headline}` : described.headline;
  return `<p class="verdict verdict-${kind}" data-outcome="${kind}">${escapeHtml(headline)}${lines}</p>`;
}

/** The new checkpoint's text, shown open; or a note that no checkpoint was written. */
function renderCheckpoint(classification: Classification, after: readonly Message[]): string {
  const row = classification.after.find((item) => item.status === 'new');
  const message = row === undefined ? undefined : after[row.index];
  const part = message?.parts.find((item) => item.type === 'text');
  const text = part?.type === 'text' ? part.text : undefined;
  if (row === undefined || text === undefined) {
    return '<div class="no-checkpoint"><h3>Checkpoint</h3><p>No checkpoint was written in this pass.</p></div>';
  }
  const parsed = parseCheckpoint(text);
  const source = parsed?.source === undefined ? '' : ` · source: ${parsed.source}`;
  return [
    '<details class="checkpoint" open>',
    `<summary>Checkpoint — after #${row.index}${escapeHtml(source)}</summary>`,
    `<pre>${escapeHtml(cappedText(parsed?.body ?? text))}</pre>`,
    '</details>',
  ].join('');
}
