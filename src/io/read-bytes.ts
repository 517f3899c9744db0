import { readFile } from 'node:fs/promises';
import { CondenseError } from '../errors/condense-error.js';

/** Reads a whole file as bytes, turning file-system errors into `IO_FAILED` errors that name the file. */
export async function readFileBytes(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw readFailure(path, error);
  }
}

/** The `IO_FAILED` error for a file that could not be read: what the system said, in plain words. */
export function readFailure(
  path: string,
  error: unknown,
  directoryHint = 'pass a session file, not a directory',
): CondenseError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a directory'
        : code === 'EACCES'
          ? 'permission denied'
          : (error as Error).message;
  return new CondenseError({
    code: 'IO_FAILED',
    message: `cannot read ${path}: ${reason}`,
    hint: code === 'EISDIR' ? directoryHint : 'check the path',
    location: { file: path },
    cause: error,
  });
}
