import { CondenseError } from '../errors/condense-error.js';
import { FORMAT_NAMES, type FormatName, isFormatName } from '../model/format.js';
import { aiSdkCodec } from './ai-sdk/index.js';
import { anthropicCodec } from './anthropic-messages/index.js';
import { claudeCodeCodec } from './claude-code/index.js';
import type { Codec } from './codec.js';
import { codexCodec } from './codex/index.js';
import {
  type DecodeDocumentOptions,
  decodeDocumentWith,
  detectFormatOf,
  type JsonLinesReader,
  readJsonLinesWith,
} from './decode-document.js';
import type { DocumentLayout, TranscriptDocument } from './document.js';
import {
  defaultLayout,
  type EncodableDocument,
  encodeDocumentChunksWith,
  encodeDocumentWith,
} from './encode-document.js';
import { openaiCodec } from './openai-chat/index.js';
import { responsesCodec } from './openai-responses/index.js';
import { sharegptCodec } from './sharegpt/index.js';

const CODECS: Readonly<Record<FormatName, Codec>> = {
  openai: openaiCodec,
  anthropic: anthropicCodec,
  sharegpt: sharegptCodec,
  'ai-sdk': aiSdkCodec,
  'claude-code': claudeCodeCodec,
  'openai-responses': responsesCodec,
  codex: codexCodec,
};

/** The codec of a format. Throws `UNKNOWN_FORMAT` for a name that is not a format. */
export function getCodec(format: string): Codec {
  if (!isFormatName(format)) {
    throw new CondenseError({
      code: 'UNKNOWN_FORMAT',
      message: `unknown format "${format}"`,
      hint: `use one of ${FORMAT_NAMES.join(', ')}`,
    });
  }
  return CODECS[format];
}

/** Decodes the text of a transcript file (JSON or JSONL, any supported format, detected unless given). */
export function decodeDocument(text: string, options: DecodeDocumentOptions = {}): TranscriptDocument {
  return decodeDocumentWith(getCodec, text, options);
}

/**
 * A JSONL file of one transcript per line, to decode a line at a time; undefined when the text is anything else
 * (decode that with {@link decodeDocument}).
 */
export function readJsonLines(
  text: string,
  options: DecodeDocumentOptions = {},
): JsonLinesReader | undefined {
  return readJsonLinesWith(getCodec, text, options);
}

/** Writes a document back to text in its format and layout. */
export function encodeDocument(document: EncodableDocument): string {
  return encodeDocumentWith(getCodec, document);
}

/** {@link encodeDocument}'s text in chunks made as they are asked for (a JSONL file a few lines at a time). */
export function encodeDocumentChunks(document: EncodableDocument): Generator<string> {
  return encodeDocumentChunksWith(getCodec, document);
}

/** Detects the format of parsed values (one JSON document, or the first lines of a JSONL file). */
export function detectFormat(sample: readonly unknown[]): FormatName {
  return detectFormatOf(getCodec, sample);
}

/** The layout used when writing `count` transcripts in `format`. */
export function layoutFor(format: FormatName, count: number): DocumentLayout {
  return defaultLayout(getCodec, format, count);
}
