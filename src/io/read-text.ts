import { readFile } from 'node:fs/promises';
import { readFailure } from './read-bytes.js';

/** Reads a UTF-8 file, turning file-system errors into `IO_FAILED` errors that name the file and say what to do. */
export async function readTextFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw readFailure(path, error, 'pass a file, not a directory');
  }
}
