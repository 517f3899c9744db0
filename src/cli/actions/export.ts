import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describeLosses, type Loss, mergeLosses } from '../../codecs/convert/losses.js';
import type { WireProblem } from '../../codecs/provider-rules/index.js';
import { CondenseError } from '../../errors/condense-error.js';
import { type ExportFormat, exportSession } from '../../session/export-session.js';
import { sessionFilesIn } from '../../session/list-sessions.js';
import { loadSessionFile } from '../../session/load-session-file.js';
import { sessionProblem } from '../../session/session-check.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { writeOutput } from '../output.js';
import { describeProblems } from '../render/wire-problems.js';
import { issueBudget, loadSessionInput, sessionIssueLines } from '../session-input.js';

/** The flags of the command. */
export interface ExportFlags {
  readonly to: ExportFormat;
  readonly redact?: boolean;
  readonly out?: string;
  readonly context?: boolean;
}

/** What `condense export` does once its arguments are parsed (loaded only when the command runs). */
export async function runExport(
  context: CliContext,
  state: CommandState,
  input: string,
  flags: ExportFlags,
): Promise<void> {
  const path = resolve(context.cwd, input);
  const directory = await isDirectory(path);
  const files = directory ? await sessionFilesIn(path) : [path];
  if (files.length === 0) {
    throw new CondenseError({
      code: 'EMPTY_INPUT',
      message: `no session files in ${input}`,
      hint: 'pass a .jsonl session file or a directory holding some',
      location: { file: path },
    });
  }
  const view = flags.context === true ? 'context' : 'full';
  const lines: string[] = [];
  const budget = issueBudget();
  let skipped = 0;
  let notSessions = 0;
  let secrets = 0;
  let queued = 0;
  const losses: Loss[][] = [];
  const problems: { index: number; problems: readonly WireProblem[] }[] = [];
  for (const file of files) {
    const options = { subagents: false, view } as const;
    const session = directory ? await loadSessionFile(file, options) : await loadSessionInput(file, options);
    const problem = await sessionProblem(session, file);
    if (problem !== undefined) {
      notSessions++;
      context.stderr(`condense: skipped ${problem.describe()}\n`);
      continue;
    }
    context.stderr(sessionIssueLines(file, session.issues, budget));
    if (session.transcript.messages.length === 0) {
      skipped++;
      continue;
    }
    const exported = exportSession(session, { to: flags.to, redact: flags.redact === true });
    secrets += exported.findings.length;
    queued += session.queuedPrompts.length;
    losses.push([...exported.losses]);
    if (exported.problems.length > 0) problems.push({ index: lines.length, problems: exported.problems });
    lines.push(JSON.stringify(exported.line));
  }
  if (budget.hidden > 0) context.stderr(`condense: … and ${budget.hidden} more line problem(s)\n`);
  if (lines.length === 0) {
    throw new CondenseError({
      code: notSessions === files.length ? 'NOT_A_SESSION' : 'EMPTY_INPUT',
      message: `nothing to export: ${describeSkips(files.length, skipped, notSessions)}`,
      hint: 'pass a session with messages, which condense sessions <dir> lists; nothing was written',
      location: { file: path },
    });
  }
  await writeOutput(context, `${lines.join('\n')}\n`, { out: flags.out, inputs: files });
  const notes = [`exported ${lines.length} session(s) as ${flags.to}`];
  if (skipped > 0) notes.push(`skipped ${skipped} without messages`);
  if (notSessions > 0) notes.push(`skipped ${notSessions} file(s) that are not session logs`);
  if (flags.redact === true) notes.push(`masked ${secrets} secret(s)`);
  const report = [notes.join('; ')];
  if (queued > 0)
    report.push(
      `${queued} prompt(s) found only in the prompt queue are not part of the conversation and not exported (condense replay shows them)`,
    );
  report.push(...describeLosses(mergeLosses(losses), flags.to));
  const broken = describeProblems(problems, flags.to, lines.length);
  report.push(...broken);
  context.stderr(report.map((line) => `condense: ${line}\n`).join(''));
  state.exitCode = broken.length > 0 ? EXIT.failure : EXIT.ok;
}

function describeSkips(files: number, withoutMessages: number, notSessions: number): string {
  const parts: string[] = [];
  if (withoutMessages > 0) parts.push(`${withoutMessages} session(s) without messages`);
  if (notSessions > 0) parts.push(`${notSessions} file(s) that are not session logs`);
  return `of ${files} file(s), ${parts.join(' and ')}`;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
