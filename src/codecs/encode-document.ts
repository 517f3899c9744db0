import type { FormatName } from '../model/format.js';
import type { Transcript } from '../model/transcript.js';
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
  const codec = lookup(document.format);
  const indent = document.indent ?? 0;
  const transcripts = document.entries.flatMap((entry) =>
    entry.kind === 'transcript' ? [entry.transcript] : [],
  );
  const lineOf = (value: unknown): string => document.sourceText?.get(value) ?? JSON.stringify(value);
  switch (document.layout) {
    case 'records': {
      const lines: string[] = [];
      for (const transcript of transcripts) {
        const records = codec.encode(transcript);
        if (!Array.isArray(records)) lines.push(lineOf(records));
        else for (const record of records) lines.push(lineOf(record));
      }
      return joinLines(lines);
    }
    case 'jsonl':
      return joinLines(
        document.entries.map((entry) =>
          entry.kind === 'invalid' ? entry.text : lineOf(codec.encode(entry.transcript)),
        ),
      );
    case 'json-array':
      return `${JSON.stringify(
        transcripts.map((transcript) => codec.encode(transcript)),
        null,
        indent,
      )}\n`;
    case 'json':
      return `${JSON.stringify(transcripts.length === 1 ? codec.encode(transcripts[0] as Transcript) : transcripts.map((t) => codec.encode(t)), null, indent)}\n`;
  }
}

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The layout a format is written in when converting `count` transcripts into it. */
export function defaultLayout(lookup: CodecLookup, format: FormatName, count: number): DocumentLayout {
  if (lookup(format).fileLayout === 'records') return 'records';
  return count === 1 ? 'json' : 'jsonl';
}
