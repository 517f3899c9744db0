import { SingleBar } from 'cli-progress';
import type { BatchEvent, BatchIssue, TrajectoryRunReport } from '../../batch/batch-events.js';
import type { TrajectoryProgress } from '../../batch/progress.js';
import type { CliContext } from '../context.js';
import { integer } from '../render/table.js';

/** Issues printed one per line before the rest are only counted. */
const MAX_PRINTED_ISSUES = 20;
/** Plain progress lines are printed at most this often, in milliseconds. */
const PLAIN_INTERVAL_MS = 5000;

/** Turns batch events into terminal output. */
export interface ProgressRenderer {
  onEvent(event: BatchEvent): void;
  /** Stops the bar (if any) so the summary prints on a clean line. */
  stop(): void;
}

function duration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '?';
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
}

interface BarPayload {
  readonly compressed: string;
  readonly skipped: string;
  readonly failed: string;
  readonly saved: string;
  readonly rate: string;
  readonly remaining: string;
}

function payload(progress: TrajectoryProgress): BarPayload {
  return {
    compressed: integer(progress.compressed),
    skipped: integer(progress.skipped),
    failed: integer(progress.failed),
    saved: integer(progress.tokensSaved),
    rate: progress.rate.toFixed(1),
    remaining: duration(progress.eta),
  };
}

function plainLine(progress: TrajectoryProgress): string {
  const values = payload(progress);
  return `condense: ${integer(progress.done)}/${integer(progress.total)} done · ${values.compressed} compressed · ${values.skipped} skipped · ${values.failed} failed · ${values.saved} tokens saved · ${values.rate}/s · ETA ${values.remaining}\n`;
}

function issueLine(issue: BatchIssue): string {
  const what: Record<BatchIssue['kind'], string> = {
    'invalid-line': 'not valid JSON, carried through untouched',
    failed: 'failed, kept as it was',
    'timed-out': 'timed out, kept as it was',
    passthrough: 'not a trajectory, carried through',
    'summary-error': 'summary model failed, fallback used',
  };
  return `condense: ${issue.file}:${issue.line}: ${what[issue.kind]}${issue.message === '' ? '' : ` (${issue.message})`}\n`;
}

/**
 * A live bar (done/total, compressed, skipped, failed, tokens saved, rate, ETA) when standard error is a
 * terminal; otherwise plain lines: one per file and a progress line at most every five seconds. `now` is the
 * CLI's clock, used only to pace the plain lines.
 */
export function createProgressRenderer(context: CliContext, now: () => number): ProgressRenderer {
  let printedIssues = 0;
  let hiddenIssues = 0;
  let lastPlain = now();
  let bar: SingleBar | undefined;
  const stream = { isTTY: true, columns: context.columns, write: (text: string) => context.stderr(text) };
  const print = (text: string) => {
    if (bar !== undefined) bar.stop();
    context.stderr(text);
    if (bar !== undefined) bar.start(bar.getTotal(), bar.getProgress() * bar.getTotal());
  };
  return {
    onEvent(event) {
      switch (event.type) {
        case 'start':
          if (event.dryRun) context.stderr('condense: dry run: nothing is written and no model is called\n');
          return;
        case 'file-start':
          if (context.stderrIsTTY) {
            bar ??= new SingleBar({
              stream: stream as unknown as NodeJS.WritableStream,
              format:
                '{bar} {value}/{total} | {compressed} compressed | {skipped} skipped | {failed} failed | {saved} tok saved | {rate}/s | ETA {remaining}',
              hideCursor: true,
              clearOnComplete: false,
            });
          } else {
            context.stderr(`condense: ${event.file}: ${integer(event.entries)} entries (${event.format})\n`);
          }
          return;
        case 'progress':
          if (bar !== undefined) {
            if (!bar.isActive) bar.start(event.progress.total, event.progress.done, payload(event.progress));
            bar.update(event.progress.done, payload(event.progress));
          } else if (now() - lastPlain >= PLAIN_INTERVAL_MS) {
            lastPlain = now();
            context.stderr(plainLine(event.progress));
          }
          return;
        case 'issue':
          if (printedIssues < MAX_PRINTED_ISSUES) {
            printedIssues++;
            print(issueLine(event.issue));
          } else hiddenIssues++;
          return;
        case 'notice':
          print(`condense: ${event.message}\n`);
          return;
        case 'file-resumed':
          print(`condense: ${event.report.file}: finished by an earlier run, skipped\n`);
          return;
        case 'file-error':
          print(
            `condense: ${event.code === undefined ? '' : `error ${event.code}: `}${event.file}: ${event.message}\n`,
          );
          return;
        case 'file-done':
          if (bar === undefined)
            context.stderr(`condense: ${event.report.file}: done → ${event.report.output}\n`);
          return;
        case 'done':
          bar?.stop();
          bar = undefined;
          if (hiddenIssues > 0)
            context.stderr(`condense: … and ${integer(hiddenIssues)} more entries with issues\n`);
          return;
      }
    },
    stop() {
      bar?.stop();
    },
  };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0.0 %' : `${((part / whole) * 100).toFixed(1)} %`;
}

/** The closing lines of a run. */
export function summaryLines(report: TrajectoryRunReport): string {
  const counts = report.counts;
  const verb = report.dryRun ? 'would compress' : 'compressed';
  const lines = [
    `${verb} ${integer(counts.compressed)} of ${integer(counts.total)} trajectories (${integer(counts.skippedUnderTarget)} under the target, ${integer(counts.notCompressible)} with nothing to cut, ${integer(counts.failed)} failed of which ${integer(counts.timedOut)} timed out); ${integer(counts.stillOverLimit)} still over the target`,
    `tokens ${integer(counts.tokensBefore)} → ${integer(counts.tokensAfter)} (saved ${percent(counts.tokensBefore - counts.tokensAfter, counts.tokensBefore)}); summary model calls ${integer(counts.apiCalls)}, errors ${integer(counts.apiErrors)}`,
  ];
  if (counts.escalated > 0)
    lines.push(`${integer(counts.escalated)} reached the target through the digest-then-summarize strategy`);
  if (report.invalidLines > 0)
    lines.push(`${integer(report.invalidLines)} invalid line(s) carried through untouched`);
  const written = report.files.filter((file) => file.status === 'written').length;
  const resumed = report.files.filter((file) => file.status === 'resumed').length;
  if (!report.dryRun) {
    lines.push(
      `wrote ${written} file(s) to ${report.outputDir}${resumed > 0 ? `, ${resumed} already finished` : ''}; metrics: ${report.metricsPath ?? '-'}`,
    );
  }
  return `${lines.map((line) => `condense: ${line}`).join('\n')}\n`;
}
