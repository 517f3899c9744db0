import { basename, extname } from 'node:path';
import type { CompactionReport } from '../../engines/compaction-report.js';
import { CondenseError } from '../../errors/condense-error.js';
import { DEFAULT_MAX_TRANSCRIPTS, renderReportHtml } from '../../report/render-report.js';
import type { ReportTranscript } from '../../report/report-input.js';
import { formatNumber } from '../../transforms/text-facts.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import type { EngineFlags } from '../engine-flags.js';
import { engineFor, loadEngineSetup, loadRuleOptions, thresholdNote } from '../engine-setup.js';
import { loadInput } from '../input.js';
import { writeOutput } from '../output.js';

/** The flags of the command. */
export interface ReportFlags extends EngineFlags {
  /** False with `--no-force`: respect the threshold. */
  readonly force: boolean;
  readonly out?: string;
}

/** What `condense report` does once its arguments are parsed (loaded only when the command runs). */
export async function runReport(
  context: CliContext,
  state: CommandState,
  file: string,
  flags: ReportFlags,
): Promise<void> {
  const ruleOptions = await loadRuleOptions(context, flags);
  const { document } = await loadInput(context, file, flags.format);
  const setup = await loadEngineSetup(context, flags, ruleOptions);
  const note = thresholdNote(flags, engineFor(context, flags, setup));
  if (note !== undefined) context.stderr(`condense: note: ${note}\n`);
  const transcripts: ReportTranscript[] = [];
  const entries = document.entries.filter((entry) => entry.kind === 'transcript');
  // The page shows the first DEFAULT_MAX_TRANSCRIPTS; compacting the rest of a large dataset would be wasted.
  for (const entry of entries.slice(0, DEFAULT_MAX_TRANSCRIPTS)) {
    const result = await engineFor(context, flags, setup).compress(entry.transcript, {
      force: flags.force,
      ...(flags.focus === undefined ? {} : { focusTopic: flags.focus }),
    });
    const line = entry.line === undefined ? '' : ` (line ${entry.line})`;
    transcripts.push({
      before: entry.transcript,
      after: result.transcript,
      report: result.report,
      title: `Transcript #${transcripts.length}${line}`,
    });
  }
  if (entries.length === 0) {
    throw new CondenseError({
      code: 'INVALID_INPUT',
      message: 'the file holds no readable transcript',
      hint: 'run condense inspect on it to see what was found',
      location: { file },
    });
  }
  const name = file === '-' ? 'stdin' : basename(file);
  const html = renderReportHtml({
    transcripts,
    totalTranscripts: entries.length,
    title: `condense report: ${name}`,
    sourceName: file === '-' ? 'standard input' : file,
    ...(setup.exactCounter === undefined ? {} : { counter: setup.exactCounter }),
  });
  const out = flags.out ?? defaultOutput(file);
  await writeOutput(context, html, { out, inputs: [file] });
  const where = out === '-' ? 'standard output' : out;
  const shown =
    entries.length > transcripts.length ? ` (the first ${transcripts.length} of ${entries.length})` : '';
  context.stderr(`condense: wrote ${where}: ${headline(transcripts.map((entry) => entry.report))}${shown}\n`);
  state.exitCode = EXIT.ok;
}

/** `<input name without extension>.report.html` in the current directory. */
function defaultOutput(file: string): string {
  if (file === '-') return 'stdin.report.html';
  const name = basename(file);
  const stem = name.slice(0, name.length - extname(name).length) || name;
  return `${stem}.report.html`;
}

/** The figures of the whole file in one line. */
function headline(reports: readonly CompactionReport[]): string {
  const sum = (pick: (report: CompactionReport) => number): number =>
    reports.reduce((total, report) => total + pick(report), 0);
  const before = sum((report) => report.tokensBefore.rough);
  const after = sum((report) => report.tokensAfter.rough);
  const saved = before === 0 ? 0 : (100 * (before - after)) / before;
  const compacted = reports.filter((report) => report.madeProgress).length;
  const count = reports.length === 1 ? '1 transcript' : `${reports.length} transcripts`;
  const status =
    compacted === reports.length ? '' : `, ${reports.length - compacted} not compacted (see the page)`;
  return `${count}${status}; ${sum((report) => report.messagesBefore)} → ${sum((report) => report.messagesAfter)} messages, ~${formatNumber(before)} → ~${formatNumber(after)} tokens (-${saved.toFixed(1)} %)`;
}
