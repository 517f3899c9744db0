import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * Temporary files of atomic writes. Each is named `.<target>.condense-<host>-<pid>-<random>.tmp` beside its
 * target, so a run that was killed can be told apart from one still writing: on this host, a temporary file
 * whose process is gone is stale. The names of live temporary files are kept in one process-wide set, because
 * the signal and exit handlers (`cli/main.ts`) that remove them know nothing of the writes in progress.
 */
const live = new Set<string>();

/** Targets whose directory was already swept for stale temporary files in this process. */
const swept = new Set<string>();

/** A temporary file from another host (or whose host cannot be checked) is stale after a day untouched. */
const FOREIGN_STALE_MS = 24 * 60 * 60 * 1000;

/** File names are limited to 255 bytes; a long target name is shortened in its temporary name. */
const MAX_STEM = 160;

const HOST = hostname()
  .replace(/[^A-Za-z0-9]/g, '')
  .slice(0, 24);

function stem(target: string): string {
  return basename(target).slice(0, MAX_STEM);
}

/** A fresh temporary path beside `target`, registered for removal on signals and exit until released. */
export function temporaryPathFor(target: string): string {
  const name = `.${stem(target)}.condense-${HOST}-${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  const path = join(dirname(target), name);
  live.add(path);
  return path;
}

/** Forgets a temporary path (renamed into place, or removed). */
export function releaseTemporary(path: string): void {
  live.delete(path);
}

/** Removes a temporary file and forgets it; never throws. */
export async function discardTemporary(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => undefined);
  live.delete(path);
}

/**
 * Removes every temporary file this process still has, synchronously: for signal and `exit` handlers, where
 * nothing asynchronous runs any more.
 */
export function removeTemporariesSync(): void {
  for (const path of live) {
    try {
      rmSync(path, { force: true });
    } catch {
      // Best effort on the way out: a file that cannot be removed is swept by the next run.
    }
  }
  live.clear();
}

const OWN_NAME = /^\.(.+)\.condense-([A-Za-z0-9]*)-(\d+)-[0-9a-f]{12}\.tmp$/;

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Options of {@link removeStaleTemporaries}. */
export interface StaleSweepOptions {
  /** Clock in epoch milliseconds. @default Date.now */
  readonly now?: () => number;
  /** Sweep again even if this target's directory was swept before in this process. @default false */
  readonly force?: boolean;
}

/**
 * Removes the temporary files of earlier, killed writes of `target` and returns their paths. Only files of
 * condense's own naming for this very target are considered, and only regular files owned by this user (never a
 * symbolic link); one is removed when it was made on this host by a process that no longer exists, or, from
 * another host, when untouched for a day. Never throws: a sweep that fails leaves the files.
 */
export async function removeStaleTemporaries(
  target: string,
  options: StaleSweepOptions = {},
): Promise<string[]> {
  if (swept.has(target) && options.force !== true) return [];
  swept.add(target);
  const dir = dirname(target);
  const own = stem(target);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const now = options.now ?? Date.now;
  const removed: string[] = [];
  for (const name of names) {
    const match = OWN_NAME.exec(name);
    if (match === null || match[1] !== own) continue;
    const path = join(dir, name);
    const pid = Number(match[3]);
    if (live.has(path) || (match[2] === HOST && pid === process.pid)) continue;
    try {
      const info = await lstat(path);
      if (!info.isFile() || (process.getuid !== undefined && info.uid !== process.getuid())) continue;
      const stale =
        match[2] === HOST && HOST !== '' ? processGone(pid) : now() - info.mtimeMs > FOREIGN_STALE_MS;
      if (!stale) continue;
      await rm(path, { force: true });
      removed.push(path);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed;
}
