import { stripOrigins } from '../../src/model/origins.js';
import type { LoadedSession } from '../../src/session/session-types.js';

/** Everything a load returns except what only says how it was computed (parse counts, pre-filter mode). */
export function comparable(session: LoadedSession): unknown {
  const { stats, issues, recordUuids, transcript, ...rest } = session;
  const { parsedLines: _lines, parsedBytes: _bytes, prefilter: _mode, ...counts } = stats;
  return JSON.parse(
    JSON.stringify({
      ...rest,
      counts,
      transcript: stripOrigins(transcript),
      issues: issues.filter((issue) => issue.code !== 'prefilter-fallback'),
      recordUuids: [...recordUuids].sort(),
    }),
  );
}

/** A session file's text from lines of records. */
export function jsonl(records: readonly unknown[]): Uint8Array {
  return Buffer.from(`${records.map((record) => JSON.stringify(record)).join('\n')}\n`, 'utf8');
}
