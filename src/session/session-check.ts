import { CondenseError } from '../errors/condense-error.js';
import { scanLines } from '../io/jsonl-scan.js';
import { readFileBytes } from '../io/read-bytes.js';
import { isJsonObject } from '../model/json.js';
import { CLAUDE_CODE_DIALECT, CONDENSE_DIALECT } from './dialect.js';
import type { LoadedSession } from './session-types.js';

const READERS_HINT =
  'replay, export and sessions read session logs: Claude Code writes them to ~/.claude/projects/<project>/<session>.jsonl, Codex to ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl; for a transcript file use condense inspect, convert or compact';

/** Record types of either session format. */
const KNOWN_TYPES: ReadonlySet<string> = new Set([
  ...CLAUDE_CODE_DIALECT.knownTypes,
  ...CONDENSE_DIALECT.knownTypes,
]);

/** Lines looked at for a session record before a file is called no session. */
const MAX_LINES_LOOKED_AT = 10_000;

/** True when one of the first lines of the bytes is a record of a session format (a snapshot counts). */
function holdsSessionRecord(bytes: Uint8Array): boolean {
  const lines = scanLines(bytes);
  const decoder = new TextDecoder();
  for (let at = 0; at < Math.min(lines.count, MAX_LINES_LOOKED_AT); at++) {
    try {
      const value: unknown = JSON.parse(
        decoder.decode(bytes.subarray(lines.starts[at] as number, lines.ends[at] as number)),
      );
      if (isJsonObject(value) && typeof value['type'] === 'string' && KNOWN_TYPES.has(value['type']))
        return true;
    } catch {
      // Not JSON: not a record.
    }
  }
  return false;
}

/**
 * Why a loaded file is no session at all, or `undefined` when it is one: `EMPTY_INPUT` for a file without a
 * line, `NOT_A_SESSION` for one (not a Codex rollout) where no line is a record of a session format — a transcript file, a dataset, a
 * binary file. A session whose conversation is empty (titles or file snapshots only, a `/clear`) is a session.
 * The loaded session answers for most files; a file without record uuids or titles is read again to look for
 * records of the formats' other types.
 */
export async function sessionProblem(
  session: LoadedSession,
  file: string,
): Promise<CondenseError | undefined> {
  if (session.stats.lines === 0) {
    return new CondenseError({
      code: 'EMPTY_INPUT',
      message: session.stats.bytes === 0 ? 'the file is empty' : 'the file holds only blank lines',
      hint: READERS_HINT,
      location: { file },
    });
  }
  // A Codex rollout was recognised by its first line before it was loaded; it has no record uuids.
  if (session.format === 'codex') return undefined;
  if (session.recordUuids.size > 0 || session.titles.length > 0) return undefined;
  if (holdsSessionRecord(await readFileBytes(file))) return undefined;
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
