import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CondenseError } from '../errors/condense-error.js';
import { loadSession } from './load-session.js';
import { openFileSink } from './session-file.js';
import { SessionWriter, type SessionWriterOptions } from './session-writer.js';

/**
 * Opens a condense session log for appending: a new file gets a header line on the first append; an existing log
 * is loaded and continued from its active leaf (its id kept). A log whose last line was cut short by a crash gets
 * a newline first, so the next line starts clean. Refuses files that are not condense logs (condense never
 * appends to another tool's session files): `SESSION_INVALID`.
 */
export async function openSessionWriter(
  path: string,
  options: SessionWriterOptions = {},
): Promise<SessionWriter> {
  const existing = await readIfExists(path);
  let resume: SessionWriterOptions['resume'];
  if (existing !== undefined && existing.length > 0) {
    const session = loadSession(existing, { fileName: path });
    if (session.format !== 'condense') {
      throw new CondenseError({
        code: 'SESSION_INVALID',
        message: `${path} is not a condense session log`,
        hint: 'write to a new file; condense never appends to another tool’s session files',
        location: { file: path },
      });
    }
    resume = {
      sessionId: session.sessionId ?? options.sessionId ?? (options.newId ?? randomUUID)(),
      leafUuid: session.leaf?.uuid ?? null,
      knownUuids: session.recordUuids,
    };
  }
  const sink = await openFileSink(path);
  if (existing !== undefined && existing.length > 0 && existing[existing.length - 1] !== 0x0a) {
    await sink.append(Buffer.from('\n'));
  }
  return new SessionWriter(sink, { ...options, ...(resume === undefined ? {} : { resume }) });
}

async function readIfExists(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CondenseError({
      code: 'IO_FAILED',
      message: `cannot read ${path}: ${(error as Error).message}`,
      hint: 'check the path and its permissions',
      location: { file: path },
      cause: error,
    });
  }
}
