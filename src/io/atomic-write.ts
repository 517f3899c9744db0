import type { Stats } from 'node:fs';
import { type FileHandle, open, rename } from 'node:fs/promises';
import { CondenseError, isCondenseError } from '../errors/condense-error.js';
import { type OutputTarget, resolveOutputTarget } from './output-target.js';
import {
  discardTemporary,
  releaseTemporary,
  removeStaleTemporaries,
  temporaryPathFor,
} from './temp-files.js';

function writeError(path: string, error: unknown): CondenseError {
  return new CondenseError({
    code: 'IO_FAILED',
    message: `could not write ${path}: ${(error as Error).message}`,
    hint: 'check that the directory exists and is writable',
    location: { file: path },
    cause: error,
  });
}

/** A temporary file beside a target, open for writing, to be renamed over the target by `commit`. */
export interface PendingReplacement {
  readonly handle: FileHandle;
  /** Flushes, gives the file the target's permissions and renames it over the target. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; the target is left as it was. */
  discard(): Promise<void>;
}

/**
 * Opens a temporary file beside the real file a target resolves to (after sweeping stale ones of earlier,
 * killed runs). It is created exclusively, so nothing planted at its name is followed; on `commit` it takes
 * the permission bits of the file it replaces (a 0600 file stays 0600; umask applies to new files only).
 */
export async function openReplacement(
  target: Extract<OutputTarget, { kind: 'file' }>,
): Promise<PendingReplacement> {
  await removeStaleTemporaries(target.path);
  const temporary = temporaryPathFor(target.path);
  let handle: FileHandle;
  try {
    handle = await open(temporary, 'wx', target.existing === undefined ? 0o666 : 0o600);
  } catch (error) {
    await discardTemporary(temporary);
    throw writeError(target.requested, error);
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    handle,
    async commit() {
      try {
        if (target.existing !== undefined) await keepOwnership(handle, target.existing);
        await handle.sync();
        await close();
        await rename(temporary, target.path);
        releaseTemporary(temporary);
      } catch (error) {
        await close().catch(() => undefined);
        await discardTemporary(temporary);
        throw writeError(target.requested, error);
      }
    },
    async discard() {
      await close().catch(() => undefined);
      await discardTemporary(temporary);
    },
  };
}

/** The replaced file's permission bits, and its owner when we may set it (root). */
async function keepOwnership(handle: FileHandle, existing: Stats): Promise<void> {
  await handle.chmod(existing.mode & 0o777);
  if (process.getuid?.() === 0) await handle.chown(existing.uid, existing.gid).catch(() => undefined);
}

/**
 * An error thrown while making a chunk (encoding, redacting): the caller's failure, not the file's, so it must
 * not be reported as a write failure. Carried out of `writeEach` so the callers can tell the two apart.
 */
class ChunkFailed {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

/** What a failed write throws: a chunk's own error as it was, a file-system error as `IO_FAILED`. */
function failureOf(path: string, error: unknown): unknown {
  if (error instanceof ChunkFailed) return error.cause;
  return isCondenseError(error) ? error : writeError(path, error);
}

/** Writes through a FIFO or a device: opened for writing as a shell redirection would, never replaced. */
async function writeThrough(path: string, chunks: Iterable<string | Uint8Array>): Promise<void> {
  try {
    const handle = await open(path, 'w');
    try {
      await writeEach(handle, chunks);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw failureOf(path, error);
  }
}

/**
 * Writes the chunks one after the other, each once the one before is written (a reader's pace for a FIFO). The
 * next chunk is made while the one before is being written: making it is the caller's work (encoding,
 * redacting), which would otherwise wait on the disk at every chunk.
 */
async function writeEach(handle: FileHandle, chunks: Iterable<string | Uint8Array>): Promise<void> {
  // `writeFile` on a handle writes from its current position, so successive calls append.
  let writing: Promise<void> | undefined;
  const iterator = chunks[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<string | Uint8Array>;
    try {
      next = iterator.next();
    } catch (error) {
      // Making a chunk failed: the write in flight ends (and any error of its own is superseded) first.
      await writing?.catch(() => undefined);
      throw new ChunkFailed(error);
    }
    if (next.done === true) break;
    await writing;
    writing = handle.writeFile(next.value);
  }
  await writing;
}

/** Writes `data` to a resolved target: atomically for a regular file, through for a FIFO or a device. */
export async function writeToTarget(target: OutputTarget, data: string | Uint8Array): Promise<void> {
  await writeChunksToTarget(target, [data]);
}

/**
 * Writes chunks, made as they are asked for, to a resolved target: a regular file gets them in a temporary file
 * renamed over it once all are written (a failure, in writing or in making a chunk, leaves it as it was); a FIFO
 * or a device gets them written through, at the reader's pace.
 */
export async function writeChunksToTarget(
  target: OutputTarget,
  chunks: Iterable<string | Uint8Array>,
): Promise<void> {
  if (target.kind === 'stream') {
    await writeThrough(target.path, chunks);
    return;
  }
  const replacement = await openReplacement(target);
  try {
    await writeEach(replacement.handle, chunks);
  } catch (error) {
    await replacement.discard();
    throw failureOf(target.requested, error);
  }
  await replacement.commit();
}

/**
 * Writes `data` to `path` so that readers see either the old file or the complete new one: the bytes go to a
 * temporary file in the same directory, are flushed to disk, and the temporary file is renamed over the file.
 * Symbolic links are followed: the file they lead to is replaced and the link stays. The replaced file keeps
 * its permission bits. A FIFO or a character device (`/dev/null`) is written through, never replaced; a
 * directory, socket or block device is refused (`OUTPUT_REFUSED`).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeToTarget(await resolveOutputTarget(path), data);
}
