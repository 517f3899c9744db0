import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CondenseError } from '../errors/condense-error.js';
import { createRoughCounter } from '../tokens/rough-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { rolloutFilesUnder } from './codex-files.js';
import { loadSessionFile, type SessionFile } from './load-session-file.js';
import { sessionProblem } from './session-check.js';
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
  /**
   * Told about each `*.jsonl` file left out because it is no session log (empty, a transcript or dataset
   * file, binary). @default nothing: such files are left out silently
   */
  readonly onSkipped?: (path: string, problem: CondenseError) => void;
}

const AGENT_FILE = /^agent-.+\.jsonl$/;

/**
 * The session files of a directory: its `*.jsonl` files except old-layout subagent files (`agent-*.jsonl`); a
 * directory without any (like `~/.claude/projects`) is searched one level down, one project per sub-directory.
 * Symbolic links to files and to project directories are followed; a file or directory reached twice (two
 * links, a link back to the root) is listed once, so loops end. Codex rollouts (`rollout-*.jsonl`, filed by
 * date under `~/.codex/sessions`) are found a few levels deep too, so one directory can list Claude Code and
 * Codex sessions side by side.
 */
export async function sessionFilesIn(dir: string): Promise<string[]> {
  const seen = new Set<string>([await realOrSelf(dir)]);
  const own = await jsonlFiles(dir, seen);
  const found = new Set(own);
  if (own.length === 0) {
    for (const entry of await entries(dir)) {
      const path = join(dir, entry.name);
      if ((await kindOf(path, entry)) !== 'directory') continue;
      const real = await realOrSelf(path);
      if (seen.has(real)) continue;
      seen.add(real);
      for (const file of await jsonlFiles(path, seen)) found.add(file);
    }
  }
  for (const file of await rolloutFilesUnder(dir)) found.add(file);
  return [...found].sort();
}

async function realOrSelf(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/** File or directory, following a symbolic link (a dangling or looping link is neither). */
async function kindOf(path: string, entry: Dirent): Promise<'file' | 'directory' | undefined> {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (!entry.isSymbolicLink()) return undefined;
  try {
    const target = await stat(path);
    return target.isFile() ? 'file' : target.isDirectory() ? 'directory' : undefined;
  } catch {
    return undefined;
  }
}

async function jsonlFiles(dir: string, seen: Set<string>): Promise<string[]> {
  const found: string[] = [];
  const names = (await entries(dir))
    .filter((entry) => entry.name.endsWith('.jsonl') && !AGENT_FILE.test(entry.name))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of names) {
    const path = join(dir, entry.name);
    if ((await kindOf(path, entry)) !== 'file') continue;
    const real = await realOrSelf(path);
    if (seen.has(real)) continue;
    seen.add(real);
    found.push(path);
  }
  return found;
}

async function entries(dir: string): Promise<Dirent[]> {
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
  for (const path of await sessionFilesIn(dir)) {
    const session = await loadSessionFile(path);
    const problem = await sessionProblem(session, path);
    if (problem === undefined) loaded.push(session);
    else options.onSkipped?.(path, problem);
  }
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
