import { CondenseError } from '../errors/condense-error.js';
import type { LoadedSession } from './session-types.js';

const READERS_HINT =
  'replay, export and sessions read session logs: Claude Code writes them to ~/.claude/projects/<project>/<session>.jsonl; for a transcript file use condense inspect, convert or compact';

/**
 * Why a loaded file is no session at all, or `undefined` when it is one: `EMPTY_INPUT` for a file without a
 * line, `NOT_A_SESSION` for one where no line is a session record (no record uuid, no title) — a transcript
 * file, a dataset, a binary file. A session whose conversation is empty (titles only, a `/clear`) is a session.
 */
export function sessionProblem(session: LoadedSession, file: string): CondenseError | undefined {
  if (session.stats.lines === 0) {
    return new CondenseError({
      code: 'EMPTY_INPUT',
      message: session.stats.bytes === 0 ? 'the file is empty' : 'the file holds only blank lines',
      hint: READERS_HINT,
      location: { file },
    });
  }
  if (session.recordUuids.size > 0 || session.titles.length > 0) return undefined;
  const unreadable = session.issues.filter(
    (issue) => issue.code === 'invalid-json' || issue.code === 'truncated-line',
  ).length;
  const lines = session.stats.lines;
  const detail =
    unreadable === lines
      ? `none of its ${lines} line(s) is JSON`
      : `none of its ${lines} line(s) is a session record${unreadable > 0 ? ` (${unreadable} are not JSON)` : ''}`;
  return new CondenseError({
    code: 'NOT_A_SESSION',
    message: `not a session log: ${detail}`,
    hint: READERS_HINT,
    location: { file },
  });
}
