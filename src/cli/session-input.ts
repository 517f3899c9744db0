import { stat } from 'node:fs/promises';
import { documentTranscripts } from '../codecs/document.js';
import { CondenseError } from '../errors/condense-error.js';
import { readTranscriptFile } from '../io/read-document.js';
import {
  type LoadSessionFileOptions,
  loadSessionFile,
  type SessionFile,
} from '../session/load-session-file.js';
import { sessionProblem } from '../session/session-check.js';
import type { SessionIssue } from '../session/session-types.js';

/**
 * Loads a session file named on the command line, refusing (`EMPTY_INPUT`, `NOT_A_SESSION`) a file that is no
 * session log, and saying what it is instead when it is a transcript file condense can read.
 */
export async function loadSessionInput(path: string, options: LoadSessionFileOptions): Promise<SessionFile> {
  if ((await stat(path).catch(() => undefined))?.isDirectory() === true) {
    throw new CondenseError({
      code: 'IO_FAILED',
      message: 'it is a directory, not a session file',
      hint: `pass a session file; condense sessions ${path} lists the sessions in it`,
      location: { file: path },
    });
  }
  const session = await loadSessionFile(path, options);
  const problem = await sessionProblem(session, path);
  if (problem === undefined) return session;
  if (problem.code !== 'NOT_A_SESSION') throw problem;
  const format = await transcriptFormatOf(path);
  if (format === undefined) throw problem;
  throw new CondenseError({
    code: problem.code,
    message: `not a session log: it is a transcript file (${format} format)`,
    hint: 'read it with condense inspect, compact or convert',
    ...(problem.location === undefined ? {} : { location: problem.location }),
  });
}

/** The format of a file when it reads as transcripts, else `undefined`. */
async function transcriptFormatOf(path: string): Promise<string | undefined> {
  try {
    const { document } = await readTranscriptFile(path);
    return documentTranscripts(document).length > 0 ? document.format : undefined;
  } catch {
    return undefined;
  }
}

/** At most this many line problems are printed per run; the rest are counted. */
const SHOWN_ISSUES = 20;

/**
 * The lines of a session that were skipped or could not be followed, as `condense: file:line: message` lines
 * for standard error (errors and warnings; `info` notes are not losses). `budget` counts how many may still be
 * printed across files.
 */
export function sessionIssueLines(
  file: string,
  issues: readonly SessionIssue[],
  budget: { left: number; hidden: number },
): string {
  let out = '';
  for (const issue of issues) {
    if (issue.severity === 'info') continue;
    if (budget.left <= 0) {
      budget.hidden++;
      continue;
    }
    budget.left--;
    const where = issue.line === undefined ? file : `${file}:${issue.line}`;
    out += `condense: ${issue.severity}: ${where}: ${issue.message}\n`;
  }
  return out;
}

/** A fresh budget for {@link sessionIssueLines}. */
export function issueBudget(): { left: number; hidden: number } {
  return { left: SHOWN_ISSUES, hidden: 0 };
}
