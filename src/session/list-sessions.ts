import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CondenseError } from '../errors/condense-error.js';
import { createRoughCounter } from '../tokens/rough-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { rolloutFilesUnder } from './codex-files.js';
import { loadSessionFile, type SessionFile } from './load-session-file.js';
import type { LoadedSession, SessionFormat } from './session-types.js';

/** One line of `condense sessions`. */
export interface SessionListing {
  readonly path: string;
  readonly sessionId: string | undefined;
  readonly format: SessionFormat;
  readonly title: string | undefined;
  readonly messages: number;
  readonly tokens: number;
  readonly compactions: number;
  readonly deadBranches: number;
  readonly subagents: number;
  readonly lastActivity: string | undefined;
  /** Issues of severity `error` or `warning`. */
  readonly problems: number;
}

/** Options of {@link listSessions}. */
export interface ListSessionsOptions {
  /** Counts the active conversation's tokens. @default the rough estimator */
  readonly counter?: TokenCounter;
}

const AGENT_FILE = /^agent-.+\.jsonl$/;

/**
 * The session files of a directory: its `*.jsonl` files except old-layout subagent files (`agent-*.jsonl`); a
 * directory without any (like `~/.claude/projects`) is searched one level down, one project per sub-directory.
 * Codex rollouts (`rollout-*.jsonl`, filed by date under `~/.codex/sessions`) are found a few levels deep too,
 * so one directory can list Claude Code and Codex sessions side by side.
 */
export async function sessionFilesIn(dir: string): Promise<string[]> {
  const own = await jsonlFiles(dir);
  const found = new Set(own);
  if (own.length === 0) {
    for (const entry of await entries(dir)) {
      if (entry.isDirectory()) for (const file of await jsonlFiles(join(dir, entry.name))) found.add(file);
    }
  }
  for (const file of await rolloutFilesUnder(dir)) found.add(file);
  return [...found].sort();
}

async function jsonlFiles(dir: string): Promise<string[]> {
  return (await entries(dir))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl') && !AGENT_FILE.test(entry.name))
    .map((entry) => join(dir, entry.name))
    .sort();
}

async function entries(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CondenseError({
      code: 'IO_FAILED',
      message: `cannot list ${dir}: ${code === 'ENOTDIR' ? 'it is not a directory' : (error as Error).message}`,
      hint: 'pass a directory of session files',
      location: { file: dir },
      cause: error,
    });
  }
}

/**
 * Loads every session of a directory and summarizes each: id, title, messages and tokens of the active
 * conversation, compactions, dead branches, subagents and last activity, newest first. Titles resolve across
 * the directory: Claude Code writes a session's title as a `summary` record into *other* files of the project.
 */
export async function listSessions(
  dir: string,
  options: ListSessionsOptions = {},
): Promise<SessionListing[]> {
  const counter = options.counter ?? createRoughCounter();
  const loaded: SessionFile[] = [];
  for (const path of await sessionFilesIn(dir)) loaded.push(await loadSessionFile(path));
  const titles = projectTitles(loaded);
  const listings = loaded.map(
    (session): SessionListing => ({
      path: session.path,
      sessionId: session.sessionId,
      format: session.format,
      title: session.title ?? titleFromProject(session, titles),
      messages: session.transcript.messages.length,
      tokens: counter.countTranscript(session.transcript),
      compactions: session.boundaries.length,
      deadBranches: session.deadBranches.count,
      subagents: session.subagents.length,
      lastActivity: session.lastActivity,
      problems: session.issues.filter((issue) => issue.severity !== 'info').length,
    }),
  );
  return listings.sort((left, right) => (right.lastActivity ?? '').localeCompare(left.lastActivity ?? ''));
}

/** Titles of a whole project keyed by the leaf they name (later records win). */
export function projectTitles(sessions: readonly LoadedSession[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const session of sessions) {
    for (const title of session.titles) {
      if (title.source === 'summary' && title.leafUuid !== undefined) out.set(title.leafUuid, title.title);
    }
  }
  return out;
}

/** A session's title from the project index: its leaf first, then the chain from the end, then any record. */
export function titleFromProject(
  session: LoadedSession,
  titles: ReadonlyMap<string, string>,
): string | undefined {
  if (titles.size === 0) return undefined;
  for (let at = session.chain.length - 1; at >= 0; at--) {
    const found = titles.get(session.chain[at]?.uuid ?? '');
    if (found !== undefined) return found;
  }
  for (const uuid of session.recordUuids) {
    const found = titles.get(uuid);
    if (found !== undefined) return found;
  }
  return undefined;
}
