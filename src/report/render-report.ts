import { createRoughCounter } from '../tokens/rough-counter.js';
import { escapeHtml } from './escape-html.js';
import { renderSection } from './render-section.js';
import type { ReportInput } from './report-input.js';
import { DEFAULT_MAX_TRANSCRIPTS } from './report-limits.js';
import { REPORT_CSS } from './styles.js';

export { DEFAULT_MAX_TRANSCRIPTS } from './report-limits.js';

/**
 * The Content-Security-Policy of every report: nothing may load (no scripts, fonts, frames or connections),
 * only the inline stylesheet applies, and images could only be inline data.
 */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * One self-contained HTML page showing what compaction did to each transcript: before and after side by
 * side, a token bar per message coloured by role, a badge saying what happened to it and why, the
 * checkpoint, and the report figures. No script and no external resource: the page works offline and its CSP
 * forbids loading anything. Every piece of transcript text is escaped.
 */
export function renderReportHtml(input: ReportInput): string {
  const counter = input.counter ?? createRoughCounter();
  const limit = Math.max(1, input.maxTranscripts ?? DEFAULT_MAX_TRANSCRIPTS);
  const shown = input.transcripts.slice(0, limit);
  const leftOut = Math.max(input.totalTranscripts ?? 0, input.transcripts.length) - shown.length;
  const title = input.title ?? 'condense report';
  const sections = shown.map((entry, index) => renderSection(entry, index, counter));
  const subtitle = [
    input.sourceName === undefined ? undefined : `from ${input.sourceName}`,
    `${input.transcripts.length} transcript${input.transcripts.length === 1 ? '' : 's'}`,
    `tokens counted by ${counter.name}`,
  ].filter((item): item is string => item !== undefined);
  const toc =
    shown.length > 1
      ? `<nav class="toc" aria-label="transcripts"><ol>${shown
          .map(
            (entry, index) =>
              `<li><a href="#t${index}">${escapeHtml(entry.title ?? `Transcript #${index}`)}</a> <span class="muted">${escapeHtml(entry.report.engine)}: ${entry.report.savings.percent.toFixed(1)} % saved</span></li>`,
          )
          .join('')}</ol></nav>`
      : '';
  const tail =
    leftOut > 0
      ? `<p class="left-out">${leftOut} more transcript${leftOut === 1 ? ' was' : 's were'} left out of this page (it shows the first ${limit}).</p>`
      : '';
  const empty = shown.length === 0 ? '<p class="left-out">The file holds no transcript.</p>' : '';
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="subtitle">${escapeHtml(subtitle.join(' · '))}</p>`,
    toc,
    ...sections,
    tail,
    empty,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
