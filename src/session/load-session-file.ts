import { basename } from 'node:path';
import { readFileBytes } from '../io/read-bytes.js';
import { loadSession } from './load-session.js';
import { readSession } from './read-session.js';
import type { LoadedSession, LoadSessionOptions } from './session-types.js';
import { findSubagentFiles, type SubagentFile, taskCallIds } from './subagents.js';

/** Options of {@link loadSessionFile}. */
export interface LoadSessionFileOptions extends Omit<LoadSessionOptions, 'fileName'> {
  /** Also load the session's subagent transcripts (both Claude Code layouts). @default true */
  readonly subagents?: boolean;
}

/** A subagent transcript loaded with its session. */
export interface LoadedSubagent extends SubagentFile {
  /** The Task/Agent tool call that started it, when the parent's result names it. */
  readonly callId: string | undefined;
  readonly session: LoadedSession;
}

/** A session loaded from disk, with its path and subagents. */
export interface SessionFile extends LoadedSession {
  readonly path: string;
  readonly subagents: readonly LoadedSubagent[];
}

/**
 * Reads and loads a session file (see `loadSession`), then its subagent transcripts: `agent-*.jsonl` files in
 * `<session>/subagents/` and, for older Claude Code versions, next to the session when they carry its id.
 */
export async function loadSessionFile(
  path: string,
  options: LoadSessionFileOptions = {},
): Promise<SessionFile> {
  const session = await readSession(path, { ...options, fileName: path });
  if (options.subagents === false || session.format !== 'claude-code') {
    return { ...session, path, subagents: [] };
  }
  const stem = basename(path, '.jsonl');
  // Subagent files are named after the session file; a session file never lists another's agents.
  if (stem.startsWith('agent-')) return { ...session, path, subagents: [] };
  const calls = taskCallIds(session.transcript);
  const subagents: LoadedSubagent[] = [];
  for (const file of await findSubagentFiles(path, session.sessionId)) {
    const loaded = loadSession(await readFileBytes(file.path), {
      fileName: file.path,
      ...(options.prefilter === undefined ? {} : { prefilter: options.prefilter }),
    });
    subagents.push({ ...file, callId: calls.get(file.agentId), session: loaded });
  }
  return { ...session, path, subagents };
}
