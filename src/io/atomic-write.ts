import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CondenseError } from '../errors/condense-error.js';

/**
 * Writes `data` to `path` so that readers see either the old file or the complete new one: the bytes go to a
 * temporary file in the same directory, are flushed to disk, and the temporary file is renamed over `path`.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CondenseError({
      code: 'IO_FAILED',
      message: `could not write ${path}: ${(error as Error).message}`,
      hint: 'check that the directory exists and is writable',
      location: { file: path },
      cause: error,
    });
  }
}
