import { open } from 'node:fs/promises';
import { CondenseError } from '../errors/condense-error.js';
import type { SessionSink } from './session-writer.js';

/**
 * Opens `path` for appending (created when missing) as a {@link SessionSink}. Every append is one `write` in
 * append mode, so lines from one writer never interleave; `sync` is `fdatasync`.
 */
export async function openFileSink(path: string): Promise<SessionSink> {
  const handle = await open(path, 'a').catch((error: unknown) => {
    throw ioError(path, 'open', error);
  });
  return {
    append: async (data) => {
      try {
        await handle.appendFile(data);
      } catch (error) {
        throw ioError(path, 'append to', error);
      }
    },
    sync: async () => {
      try {
        await handle.datasync();
      } catch (error) {
        throw ioError(path, 'flush', error);
      }
    },
    close: () => handle.close(),
  };
}

function ioError(path: string, action: string, error: unknown): CondenseError {
  return new CondenseError({
    code: 'IO_FAILED',
    message: `cannot ${action} ${path}: ${(error as Error).message}`,
    hint: 'check that the directory exists and is writable',
    location: { file: path },
    cause: error,
  });
}
