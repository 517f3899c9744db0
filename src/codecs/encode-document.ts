import type { FormatName } from '../model/format.js';
import type { Transcript } from '../model/transcript.js';
import type { Codec } from './codec.js';
import type { CodecLookup, DocumentEntry, DocumentLayout } from './document.js';

/** What {@link encodeDocumentWith} writes: a format, a layout and the entries. */
export interface EncodableDocument {
  readonly format: FormatName;
  readonly layout: DocumentLayout;
  readonly entries: readonly DocumentEntry[];
  readonly indent?: number;
  readonly sourceText?: ReadonlyMap<unknown, string>;
}

/**
 * Writes a document back to text. JSONL lines (and Claude Code records) that encode to the very value read from
 * the file are written with their original bytes; unreadable lines are written back untouched.
 */
export function encodeDocumentWith(lookup: CodecLookup, document: EncodableDocument): string {
  return [...encodeDocumentChunksWith(lookup, document)].join('');
}

/** Characters gathered before {@link encodeDocumentChunksWith} hands a chunk out. */
const CHUNK_CHARS = 64 * 1024;

/**
 * {@link encodeDocumentWith}'s text in chunks of about 64 K characters, encoded as they are asked for: a large
 * JSONL file is written out without ever building its whole text (which, with its bytes, costs more than all
 * the encoding). The chunks joined are exactly `encodeDocumentWith`'s text.
 */
export function* encodeDocumentChunksWith(
  lookup: CodecLookup,
  document: EncodableDocument,
): Generator<string> {
  const lines = documentLines(lookup, document);
  if (lines === undefined) yield wholeDocument(lookup, document);
  else yield* lineChunks(lines);
}

/** Lines, each ended by a newline, gathered into chunks of about 64 K characters. */
export function* lineChunks(lines: Iterable<string>): Generator<string> {
  let chunk = '';
  for (const line of lines) {
    // As `join` writes it: `JSON.stringify` of a value that is not JSON gives undefined, whatever its type says.
    chunk += `${line ?? ''}\n`;
    if (chunk.length < CHUNK_CHARS) continue;
    yield chunk;
    chunk = '';
  }
  if (chunk !== '') yield chunk;
}

/** The lines of a document written one record or transcript per line; undefined for a one-document layout. */
function documentLines(lookup: CodecLookup, document: EncodableDocument): Iterable<string> | undefined {
  if (document.layout !== 'records' && document.layout !== 'jsonl') return undefined;
  return lineLayout(lookup(document.format), document);
}

function* lineLayout(codec: Codec, document: EncodableDocument): Generator<string> {
  const lineOf = (value: unknown): string => document.sourceText?.get(value) ?? JSON.stringify(value);
  for (const entry of document.entries) {
    if (entry.kind === 'invalid') {
      if (document.layout === 'jsonl') yield entry.text;
      continue;
    }
    const encoded = codec.encode(entry.transcript);
    if (document.layout === 'jsonl' || !Array.isArray(encoded)) yield lineOf(encoded);
    else for (const record of encoded) yield lineOf(record);
  }
}

/** A `json` or `json-array` document: one JSON text. */
function wholeDocument(lookup: CodecLookup, document: EncodableDocument): string {
  const codec = lookup(document.format);
  const indent = document.indent ?? 0;
  const transcripts = document.entries.flatMap((entry) =>
    entry.kind === 'transcript' ? [entry.transcript] : [],
  );
  if (document.layout === 'json-array')
    return `${JSON.stringify(
      transcripts.map((transcript) => codec.encode(transcript)),
      null,
      indent,
    )}\n`;
  return `${JSON.stringify(transcripts.length === 1 ? codec.encode(transcripts[0] as Transcript) : transcripts.map((t) => codec.encode(t)), null, indent)}\n`;
}

/** The layout a format is written in when converting `count` transcripts into it. */
export function defaultLayout(lookup: CodecLookup, format: FormatName, count: number): DocumentLayout {
  if (lookup(format).fileLayout === 'records') return 'records';
  return count === 1 ? 'json' : 'jsonl';
}
