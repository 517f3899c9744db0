import { readFile } from 'node:fs/promises';
import { readFailure } from './read-bytes.js';

/** Reads a UTF-8 file, turning file-system errors into `IO_FAILED` errors that name the file and say what to do. */
export async function readTextFile(path: string): Promise<string> {
  try {
    // Decoded in one piece: `readFile(path, 'utf8')` decodes chunk by chunk into a string of many pieces, which
    // costs more and is copied again into one piece the first time it is searched.
    return (await readFile(path)).toString('utf8');
  } catch (error) {
    throw readFailure(path, error, 'pass a file, not a directory');
  }
}
