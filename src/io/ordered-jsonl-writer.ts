import { type FileHandle, open } from 'node:fs/promises';
import { CondenseError } from '../errors/condense-error.js';
import { openReplacement, type PendingReplacement } from './atomic-write.js';
import { resolveOutputTarget } from './output-target.js';

/** Lines arriving out of order, written in order to a temporary file, renamed into place when finished. */
export interface OrderedJsonlWriter {
  /** Hands over line `index` (0-based, without its newline). Lines are written as soon as all earlier ones are in. */
  put(index: number, line: string): Promise<void>;
  /** Lines received but not yet written (waiting for an earlier one). */
  readonly pending: number;
  /**
   * Writes what is left, flushes to disk and renames the temporary file over `path`: readers see the old file
   * or the complete new one, never a part. Fails when a line before the last one never arrived.
   */
  finish(): Promise<void>;
  /** Drops the temporary file; `path` is left as it was. */
  abort(): Promise<void>;
}

/** Output is written in chunks of about this many bytes. */
const CHUNK_BYTES = 1 << 20;

function ioError(path: string, action: string, error: unknown): CondenseError {
  return new CondenseError({
    code: 'IO_FAILED',
    message: `could not ${action} ${path}: ${(error as Error).message}`,
    hint: 'check that the directory exists and is writable',
    location: { file: path },
    cause: error,
  });
}

/** The file the lines go to: a temporary file renamed into place, or a FIFO or device written through. */
async function openDestination(
  path: string,
): Promise<{ handle: FileHandle; replacement: PendingReplacement | undefined }> {
  const target = await resolveOutputTarget(path);
  if (target.kind === 'file') {
    const replacement = await openReplacement(target);
    return { handle: replacement.handle, replacement };
  }
  try {
    return { handle: await open(target.path, 'w'), replacement: undefined };
  } catch (error) {
    throw ioError(path, 'open', error);
  }
}

/**
 * Opens a streaming, ordered, atomic JSONL writer for `path` (`count` lines expected). Memory holds only the
 * lines that wait for an earlier one and one output chunk; a regular file appears at `path` only on `finish()`
 * (links followed, permissions kept: see `writeFileAtomic`), a FIFO or a device is written through as lines come.
 */
export async function openOrderedJsonlWriter(path: string, count: number): Promise<OrderedJsonlWriter> {
  const { handle, replacement } = await openDestination(path);
  const waiting = new Map<number, string>();
  let next = 0;
  let chunk: string[] = [];
  let chunkBytes = 0;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const flush = (): Promise<void> => {
    if (chunk.length === 0) return writing;
    const text = chunk.join('');
    chunk = [];
    chunkBytes = 0;
    writing = writing.then(() => handle.write(text).then(() => undefined));
    // A failed write surfaces on the next put or on finish; until then it must not count as unhandled.
    writing.catch(() => undefined);
    return writing;
  };

  const writer: OrderedJsonlWriter = {
    get pending() {
      return waiting.size;
    },
    async put(index, line) {
      if (closed) throw new CondenseError({ code: 'IO_FAILED', message: `${path} is already closed` });
      waiting.set(index, line);
      while (waiting.has(next)) {
        const text = waiting.get(next) as string;
        waiting.delete(next);
        next++;
        chunk.push(text, '\n');
        chunkBytes += text.length + 1;
      }
      if (chunkBytes >= CHUNK_BYTES) await flush();
    },
    async finish() {
      if (next < count || waiting.size > 0) {
        await writer.abort();
        throw new CondenseError({
          code: 'IO_FAILED',
          message: `${path}: line ${next + 1} of ${count} was never produced; the file was not written`,
        });
      }
      closed = true;
      try {
        await flush();
      } catch (error) {
        await (replacement?.discard() ?? handle.close().catch(() => undefined));
        throw ioError(path, 'write', error);
      }
      if (replacement !== undefined) {
        await replacement.commit();
        return;
      }
      try {
        await handle.close();
      } catch (error) {
        throw ioError(path, 'close', error);
      }
    },
    async abort() {
      if (closed) return;
      closed = true;
      await writing.catch(() => undefined);
      await (replacement?.discard() ?? handle.close().catch(() => undefined));
    },
  };
  return writer;
}
