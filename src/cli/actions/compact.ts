import { introducedProblems } from '../../codecs/convert/rule-regressions.js';
import type { DocumentEntry, TranscriptDocument } from '../../codecs/document.js';
import type { WireProblem } from '../../codecs/provider-rules/index.js';
import { encodeDocument, getCodec } from '../../codecs/registry.js';
import { compactOrSmallest, type WindowOverflow } from '../../engines/best-effort.js';
import type { CompactionReport } from '../../engines/compaction-report.js';
import { describeCompaction } from '../../engines/feedback.js';
import type { Transcript } from '../../model/transcript.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import type { EngineFlags } from '../engine-flags.js';
import { engineFor, loadEngineSetup, loadRuleOptions, thresholdNote } from '../engine-setup.js';
import { loadInput } from '../input.js';
import { writeOutput } from '../output.js';
import { describeProblems } from '../render/wire-problems.js';

/** The flags of the command. */
export interface CompactFlags extends EngineFlags {
  readonly force?: boolean;
  readonly fullHistory?: boolean;
  readonly out?: string;
  readonly json?: boolean;
}

/** What `condense compact` does once its arguments are parsed (loaded only when the command runs). */
export async function runCompact(
  context: CliContext,
  state: CommandState,
  file: string,
  flags: CompactFlags,
): Promise<void> {
  const ruleOptions = await loadRuleOptions(context, flags);
  const { document } = await loadInput(context, file, flags.format);
  const setup = await loadEngineSetup(context, flags, ruleOptions);
  const note = thresholdNote(flags, engineFor(context, flags, setup));
  const notes = note === undefined ? {} : { notes: [note] };
  const results: { transcript: Transcript; report: CompactionReport }[] = [];
  const entries: DocumentEntry[] = [];
  const problems: { index: number; problems: readonly WireProblem[] }[] = [];
  const overflows: { index: number; overflow: WindowOverflow }[] = [];
  for (const entry of document.entries) {
    if (entry.kind !== 'transcript') {
      entries.push(entry);
      continue;
    }
    const view =
      flags.fullHistory === true ? undefined : getCodec(document.format).contextView?.(entry.transcript);
    if (view !== undefined) {
      const before = entry.transcript.messages.length - view.messages.length;
      context.stderr(
        `condense: compacting the session as the agent has it after its last compaction (${before} earlier messages stay in the file as they are; --full-history to include them)\n`,
      );
    }
    const input = view ?? entry.transcript;
    const { result, overflow } = await compactOrSmallest(engineFor(context, flags, setup), input, {
      force: flags.force === true,
      ...(flags.focus === undefined ? {} : { focusTopic: flags.focus }),
    });
    if (overflow !== undefined) overflows.push({ index: results.length, overflow });
    const introduced = introducedProblems(document.format, input, result.transcript);
    if (introduced.length > 0) problems.push({ index: results.length, problems: introduced });
    results.push(result);
    entries.push({ ...entry, transcript: result.transcript });
  }
  if (flags.json === true) {
    // The transcript in the input's own wire format, as the plain output writes it (records for a session).
    const codec = getCodec(document.format);
    // Per-message provenance is for in-process readers (the HTML report); the JSON keeps its documented shape.
    const payload = results.map(({ report: { provenance: _provenance, ...report }, transcript }) => ({
      report,
      transcript: codec.encode(transcript),
    }));
    const body =
      payload.length === 1
        ? { format: document.format, ...payload[0], ...notes }
        : { format: document.format, results: payload, ...notes };
    await writeOutput(context, `${JSON.stringify(body, null, 2)}\n`, { out: flags.out, inputs: [file] });
  } else {
    await writeOutput(context, encodeDocument({ ...document, entries }), {
      out: flags.out,
      inputs: [file],
    });
  }
  if (note !== undefined) context.stderr(`condense: note: ${note}\n`);
  context.stderr(uncompactedLines(document, file));
  context.stderr(feedback(results.map((result) => result.report)));
  const broken = describeProblems(problems, document.format, results.length);
  if (broken.length > 0) context.stderr(broken.map((line) => `condense: ${line}\n`).join(''));
  for (const { index, overflow } of overflows) {
    const which = results.length > 1 ? `#${index} ` : '';
    const fold =
      flags.engine === 'rules' ? 'use --engine compressor, which folds the middle into a checkpoint, ' : '';
    context.stderr(
      `condense: error BUDGET_UNREACHABLE: ${which}the transcript cannot be brought inside the ${overflow.limit}-token window: the smallest compaction, written anyway, takes ${overflow.tokens} tokens (${overflow.irreducible} of them the system prompt and the latest request, always kept) (${fold}give a larger --context-length, or shorten the system prompt or the request)\n`,
    );
  }
  const failed = broken.length > 0 || overflows.length > 0 || results.some((result) => result.report.aborted);
  state.exitCode = failed ? EXIT.failure : EXIT.ok;
}

/**
 * Lines of a JSONL input that held no transcript (not JSON, or not the file's format): written back as they were,
 * and named here so that none passes unnoticed. At most five, then a count.
 */
function uncompactedLines(document: TranscriptDocument, file: string): string {
  const lines: number[] = [];
  for (const entry of document.entries) {
    if (entry.kind === 'invalid') lines.push(entry.line);
    else if (entry.line !== undefined && entry.transcript.messages.length === 0) lines.push(entry.line);
  }
  if (lines.length === 0) return '';
  const why = (line: number): string =>
    document.issues.find((issue) => issue.line === line && issue.severity === 'error')?.message ??
    'no messages';
  const shown = lines
    .slice(0, 5)
    .map((line) => `condense: ${file}:${line}: ${why(line)} (written back as it was, not compacted)\n`);
  const more = lines.length > 5 ? `condense: … and ${lines.length - 5} more such lines of ${file}\n` : '';
  return shown.join('') + more;
}

/** The lines printed to standard error after compaction (one block per transcript, at most ten). */
function feedback(reports: readonly CompactionReport[]): string {
  const lines: string[] = [];
  for (const [index, report] of reports.slice(0, 10).entries()) {
    const described = describeCompaction(report);
    const prefix = reports.length > 1 ? `#${index} ` : '';
    lines.push(`${prefix}${described.headline}`, `${prefix}${described.tokenLine}`);
    if (report.reason !== undefined && (described.noop || report.aborted))
      lines.push(`${prefix}${report.reason}`);
    if (!described.noop && !report.aborted) lines.push(`${prefix}${detailLine(report)}`);
    if (described.note !== undefined) lines.push(`${prefix}${described.note}`);
  }
  if (reports.length > 10) lines.push(`… and ${reports.length - 10} more transcripts`);
  return `${lines.map((line) => `condense: ${line}`).join('\n')}\n`;
}

/** What the engine did, in one line: the checkpoint and pruning, or what each rule did. */
function detailLine(report: CompactionReport): string {
  const rules = report.rules;
  if (rules !== undefined) {
    return `rules: ${rules.collapsedPairs} tool pair(s) collapsed, ${rules.truncatedOutputs} output(s) truncated, ${rules.droppedSystem} system message(s) dropped, ${rules.mergedAssistant} assistant message(s) folded; ${rules.references} reference(s) to restore from (condense restore)`;
  }
  return `checkpoint: ${report.summary.source}, ${report.dropped} message(s) folded; pruned: ${report.pruning.digested} digested, ${report.pruning.deduplicated} deduplicated, ${report.pruning.argumentsShrunk} arguments shrunk, ${report.pruning.imagesStripped} images stripped`;
}
