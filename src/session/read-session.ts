import { Buffer } from 'node:buffer';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { isCondenseError } from '../errors/condense-error.js';
import { CHUNK_BYTES, readFully } from '../io/byte-source.js';
import { scanLines } from '../io/jsonl-scan.js';
import { readFailure, readFileBytes } from '../io/read-bytes.js';
import { isCodexRollout } from './codex-session.js';
import { detectDialect } from './dialect.js';
import { loadScannedSession, loadSession } from './load-session.js';
import { scanFile } from './scan-file.js';
import type { LoadedSession, LoadSessionOptions } from './session-types.js';

/**
 * Loads a session file (see `loadSession`) without reading it into memory whole when the pre-filter can work from
 * the file: a Claude Code or condense log larger than one read buffer is scanned through a reused buffer and only
 * the lines the result needs are read back. Anything else (a small file, a Codex rollout, `prefilter: false`, a
 * file that is not a regular file, lines whose bytes and parsed values disagree) is read whole and loaded by
 * `loadSession`, so the result is always the one `loadSession` gives for the file's bytes.
 */
export async function readSession(
  path: string,
  options: LoadSessionOptions,
  chunk = CHUNK_BYTES,
): Promise<LoadedSession> {
  if (options.prefilter === false) return loadSession(await readFileBytes(path), options);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw readFailure(path, error);
  }
  try {
    const scanned = scanInPlace(fd, options, chunk);
    if (scanned !== undefined) return scanned;
  } catch (error) {
    // A failed read is said as `readFileBytes` says it; anything else (an unknown `leaf`) passes through.
    throw typeof (error as NodeJS.ErrnoException).code === 'string' && !isCondenseError(error)
      ? readFailure(path, error)
      : error;
  } finally {
    closeSync(fd);
  }
  return loadSession(await readFileBytes(path), options);
}

/** The session scanned from the open file, or `undefined` when it must be read whole. */
function scanInPlace(fd: number, options: LoadSessionOptions, chunk: number): LoadedSession | undefined {
  const stats = fstatSync(fd);
  if (!stats.isFile() || stats.size <= chunk) return undefined;
  const head = Buffer.allocUnsafe(Math.min(stats.size, CHUNK_BYTES));
  const read = readFully(fd, head, head.length, 0);
  // The format is told by the first two lines (a Codex rollout needs both; a lone `{` is a whole-file JSON).
  const first = head.indexOf(0x0a);
  const second = first === -1 || first >= read ? -1 : head.indexOf(0x0a, first + 1);
  if (second === -1 || second >= read) return undefined;
  const opening = head.subarray(0, second + 1);
  if (head.subarray(0, first).toString('utf8').trim() === '{' || isCodexRollout(opening)) return undefined;
  const dialect = detectDialect(opening, scanLines(opening));
  return loadScannedSession(scanFile(fd, stats.size, dialect, chunk), options);
}
