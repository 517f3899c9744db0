import type { Stats } from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { CondenseError } from '../errors/condense-error.js';

/**
 * Where an output really goes, after every symbolic link is followed:
 * - `file`: a regular file (or none yet) at `path`, replaced atomically; `existing` is what is there now;
 * - `stream`: a FIFO or a character device (`/dev/null`, a terminal) at `path`, written through, never replaced.
 */
export type OutputTarget =
  | {
      readonly kind: 'file';
      /** The real path, every link resolved: the file that is replaced (a link to it stays a link). */
      readonly path: string;
      /** The path as given. */
      readonly requested: string;
      readonly existing: Stats | undefined;
    }
  | {
      readonly kind: 'stream';
      /** The path as given (written through, so links are followed by the system). */
      readonly path: string;
      readonly requested: string;
      readonly type: 'fifo' | 'character device';
      readonly existing: Stats;
    };

/** Symbolic links followed before giving up, as the system does (Linux: 40). */
const MAX_LINKS = 40;

function refused(path: string, message: string, hint: string, cause?: unknown): CondenseError {
  return new CondenseError({
    code: 'OUTPUT_REFUSED',
    message: `cannot write to ${path}: ${message}`,
    hint,
    location: { file: path },
    ...(cause === undefined ? {} : { cause }),
  });
}

function ioFailed(path: string, message: string, hint: string, cause: unknown): CondenseError {
  return new CondenseError({
    code: 'IO_FAILED',
    message: `cannot write to ${path}: ${message}`,
    hint,
    location: { file: path },
    cause,
  });
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw refused(path, 'its symbolic links loop', 'fix or remove the links', error);
    if (code === 'ENOTDIR')
      throw ioFailed(path, 'a part of the path is not a directory', 'check the path', error);
    throw ioFailed(path, (error as Error).message, 'check the path and its permissions', error);
  }
}

/** The path a chain of dangling links ends at (the file that writing through them would create). */
async function followDanglingLinks(path: string): Promise<string> {
  let current = path;
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let info: Stats;
    try {
      info = await lstat(current);
    } catch {
      return current;
    }
    if (!info.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw refused(path, 'its symbolic links loop', 'fix or remove the links');
}

/**
 * Resolves an output path to what writing it would really touch. Refuses (`OUTPUT_REFUSED`) directories,
 * sockets, block devices and looping links; fails (`IO_FAILED`) when the directory does not exist.
 */
export async function resolveOutputTarget(path: string): Promise<OutputTarget> {
  const existing = await statOrUndefined(path);
  if (existing === undefined) {
    const end = await followDanglingLinks(path);
    let dir: string;
    try {
      dir = await realpath(dirname(end));
    } catch (error) {
      throw ioFailed(path, `the directory ${dirname(end)} does not exist`, 'create it first', error);
    }
    return { kind: 'file', path: join(dir, basename(end)), requested: path, existing: undefined };
  }
  if (existing.isFile()) {
    return { kind: 'file', path: await realpath(path), requested: path, existing };
  }
  if (existing.isFIFO()) return { kind: 'stream', path, requested: path, type: 'fifo', existing };
  if (existing.isCharacterDevice()) {
    return { kind: 'stream', path, requested: path, type: 'character device', existing };
  }
  if (existing.isDirectory()) {
    throw refused(path, 'it is a directory', 'name a file, e.g. -o <dir>/out.json');
  }
  const what = existing.isBlockDevice() ? 'it is a block device (a disk)' : 'it is a socket';
  throw refused(path, what, 'name a regular file, a FIFO or /dev/null');
}

/** The real path of an input, or its absolute path when it cannot be resolved (standard input, gone). */
async function realInput(input: string): Promise<{ path: string; info: Stats | undefined }> {
  try {
    return { path: await realpath(input), info: await stat(input) };
  } catch {
    return { path: resolve(input), info: undefined };
  }
}

/**
 * Refuses (`OUTPUT_REFUSED`) an output that is one of the inputs, however it is reached: the same real path
 * after every link, or the same file under another name (a hard link). Writing through a FIFO or a device
 * never replaces anything and is always allowed.
 */
export async function assertNotAnInput(target: OutputTarget, inputs: readonly string[]): Promise<void> {
  if (target.kind !== 'file') return;
  for (const input of inputs) {
    const real = await realInput(input);
    const sameFile =
      real.path === target.path ||
      (target.existing !== undefined &&
        real.info !== undefined &&
        real.info.dev === target.existing.dev &&
        real.info.ino === target.existing.ino);
    if (!sameFile) continue;
    const via =
      resolve(target.requested) === target.path ? '' : ` (${target.requested} leads to ${target.path})`;
    const link = real.path === resolve(input) || via !== '' ? '' : ` (a link to ${real.path})`;
    throw new CondenseError({
      code: 'OUTPUT_REFUSED',
      message: `refusing to overwrite the input file ${input}${via}${link}`,
      hint: 'choose another -o path; condense never overwrites what it was given',
      location: { file: target.requested },
    });
  }
}
