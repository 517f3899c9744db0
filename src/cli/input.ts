import { resolve } from 'node:path';
import { decodeDocument } from '../codecs/registry.js';
import { checkTranscriptText } from '../io/check-text.js';
import { decodeTranscriptText, type LoadedDocument, readTranscriptText } from '../io/read-document.js';
import type { FormatName } from '../model/format.js';
import type { CliContext } from './context.js';

/** Reads a transcript file named on the command line (`-` = standard input), detecting its format unless given. */
export async function loadInput(
  context: CliContext,
  file: string,
  format: FormatName | undefined,
): Promise<LoadedDocument> {
  return decodeInput(await loadInputText(context, file), format);
}

/** The text of a transcript file named on the command line, checked but not decoded. */
export interface InputText {
  /** The resolved path, or `<stdin>`. */
  readonly path: string;
  readonly text: string;
  readonly stdin: boolean;
}

/** Reads the text of a transcript file named on the command line (`-` = standard input), refusing what `loadInput` refuses. */
export async function loadInputText(context: CliContext, file: string): Promise<InputText> {
  if (file === '-') {
    const text = await context.readStdin();
    checkTranscriptText(text, 'standard input');
    return { path: '<stdin>', text, stdin: true };
  }
  const path = resolve(context.cwd, file);
  return { path, text: await readTranscriptText(path), stdin: false };
}

/** Decodes an input's text as {@link loadInput} does. */
export function decodeInput(input: InputText, format: FormatName | undefined): LoadedDocument {
  const formatOption = format === undefined ? {} : { format };
  const document = input.stdin
    ? decodeDocument(input.text, { fileName: input.path, ...formatOption })
    : decodeTranscriptText(input.text, input.path, formatOption);
  return { path: input.path, text: input.text, document };
}
