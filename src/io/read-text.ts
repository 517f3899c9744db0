import { readFile } from 'node:fs/promises';
import { CondenseError } from '../errors/condense-error.js';

/** Reads a UTF-8 file, turning file-system errors into `IO_FAILED` errors that name the file and say what to do. */
export async function readTextFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
    throw new CondenseError({
      code: 'IO_FAILED',
      message: `cannot read ${path}: ${reason}`,
      hint: code === 'EISDIR' ? 'pass a file, not a directory' : 'check the path',
      location: { file: path },
      cause: error,
    });
  }
}
