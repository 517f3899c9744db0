import type { TranscriptDocument } from '../codecs/document.js';
import { decodeDocument } from '../codecs/registry.js';
import { CondenseError, isCondenseError } from '../errors/condense-error.js';
import type { FormatName } from '../model/format.js';
import { checkTranscriptText } from './check-text.js';
import { readTextFile } from './read-text.js';

/** A transcript file read from disk: its path, its text and the decoded document. */
export interface LoadedDocument {
  readonly path: string;
  readonly text: string;
  readonly document: TranscriptDocument;
}

/** Options of {@link readTranscriptFile}. */
export interface ReadTranscriptFileOptions {
  /** Read the file as this format instead of detecting it. */
  readonly format?: FormatName;
}

/**
 * Reads and decodes a transcript file of any supported format (JSON or JSONL). Unreadable JSONL lines are
 * reported in `document.issues` with their line numbers and kept to be written back; a file that is not a
 * transcript at all throws a `CondenseError` naming the file (`EMPTY_INPUT` for an empty one, `INVALID_INPUT`
 * for a binary one).
 */
export async function readTranscriptFile(
  path: string,
  options: ReadTranscriptFileOptions = {},
): Promise<LoadedDocument> {
  const text = await readTranscriptText(path);
  return { path, text, document: decodeTranscriptText(text, path, options) };
}

/** The text of a transcript file, refused as {@link readTranscriptFile} refuses it, not yet decoded. */
export async function readTranscriptText(path: string): Promise<string> {
  const text = await readTextFile(path);
  checkTranscriptText(text, path);
  return text;
}

/** Decodes the text of the transcript file at `path`; errors name the file (see {@link readTranscriptFile}). */
export function decodeTranscriptText(
  text: string,
  path: string,
  options: ReadTranscriptFileOptions = {},
): TranscriptDocument {
  try {
    return decodeDocument(text, {
      fileName: path,
      ...(options.format ? { format: options.format } : {}),
    });
  } catch (error) {
    if (isCondenseError(error)) {
      throw new CondenseError({
        code: error.code,
        message: error.message,
        ...(error.hint === undefined ? {} : { hint: error.hint }),
        location: { ...error.location, file: path },
        cause: error,
      });
    }
    throw error;
  }
}
