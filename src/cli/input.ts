import { resolve } from 'node:path';
import { decodeDocument } from '../codecs/registry.js';
import { checkTranscriptText } from '../io/check-text.js';
import { type LoadedDocument, readTranscriptFile } from '../io/read-document.js';
import type { FormatName } from '../model/format.js';
import type { CliContext } from './context.js';

/** Reads a transcript file named on the command line (`-` = standard input), detecting its format unless given. */
export async function loadInput(
  context: CliContext,
  file: string,
  format: FormatName | undefined,
): Promise<LoadedDocument> {
  const formatOption = format === undefined ? {} : { format };
  if (file === '-') {
    const text = await context.readStdin();
    checkTranscriptText(text, 'standard input');
    return {
      path: '<stdin>',
      text,
      document: decodeDocument(text, { fileName: '<stdin>', ...formatOption }),
    };
  }
  return readTranscriptFile(resolve(context.cwd, file), formatOption);
}
