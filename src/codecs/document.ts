import type { FormatName } from '../model/format.js';
import type { Transcript } from '../model/transcript.js';
import type { Codec, DecodeIssue } from './codec.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';
import { splitLines } from './lines.js';

/**
 * How a file holds its transcripts. `json`: one JSON document, one transcript. `json-array`: a JSON array of
 * transcripts (a dataset file). `jsonl`: one transcript per line. `records`: one JSONL file is one transcript.
 */
export type DocumentLayout = 'json' | 'json-array' | 'jsonl' | 'records';

/** One slot of a document: a decoded transcript, or a line that could not be read (kept to write back as is). */
export type DocumentEntry =
  | {
      readonly kind: 'transcript';
      readonly transcript: Transcript;
      /** 1-based line of the entry in a JSONL file. */
      readonly line?: number;
    }
  | { readonly kind: 'invalid'; readonly text: string; readonly line: number };

/** A decoded file: its format, layout, entries and every issue found, with line numbers. */
export interface TranscriptDocument {
  readonly format: FormatName;
  readonly layout: DocumentLayout;
  readonly entries: readonly DocumentEntry[];
  readonly issues: readonly DecodeIssue[];
  /** Pretty-printing of the source JSON (0 = compact), reused when writing the same layout back. */
  readonly indent: number;
  /**
   * Original text of each parsed JSONL line, keyed by the parsed value. An encoder that returns the very
   * object it was given writes the original bytes back.
   */
  readonly sourceText?: ReadonlyMap<unknown, string>;
}

/** The transcripts of a document, in order, skipping unreadable lines. */
export function documentTranscripts(document: TranscriptDocument): Transcript[] {
  const out: Transcript[] = [];
  for (const entry of document.entries) if (entry.kind === 'transcript') out.push(entry.transcript);
  return out;
}

/** Parsed lines of a JSONL text; unreadable lines come back as issues and `invalid` slots. */
export interface ParsedLines {
  readonly values: readonly { readonly value: unknown; readonly line: number; readonly text: string }[];
  readonly invalid: readonly { readonly text: string; readonly line: number }[];
  readonly issues: readonly DecodeIssue[];
}

/** Parses every non-blank line of a JSONL text, never throwing. */
export function parseJsonLines(text: string): ParsedLines {
  const values: { value: unknown; line: number; text: string }[] = [];
  const invalid: { text: string; line: number }[] = [];
  const issues: DecodeIssue[] = [];
  const lines = splitLines(text);
  // The last line with content: an unreadable line there was cut short (a write interrupted), not malformed.
  let lastContent = lines.length - 1;
  while (lastContent >= 0 && (lines[lastContent] ?? '').trim() === '') lastContent--;
  for (let index = 0; index < lines.length; index++) {
    const lineText = lines[index] ?? '';
    if (lineText.trim() === '') continue;
    const line = index + 1;
    try {
      const value = readJsonLine(lineText);
      if (value === TOO_DEEP) {
        invalid.push({ text: lineText, line });
        issues.push({
          code: 'too-deep',
          severity: 'error',
          message: `line ${line} nests JSON more than ${MAX_JSON_DEPTH} levels deep; it was skipped and is written back as it is`,
          path: [],
          line,
        });
        continue;
      }
      values.push({ value, line, text: lineText });
    } catch (error) {
      const last = index >= lastContent;
      invalid.push({ text: lineText, line });
      issues.push({
        code: last ? 'truncated-line' : 'invalid-json',
        severity: 'error',
        message: `line ${line} is not valid JSON (${(error as Error).message}); it was skipped`,
        path: [],
        line,
      });
    }
  }
  return { values, invalid, issues };
}

/** What {@link readJsonLine} returns for a line that nests JSON deeper than condense reads. */
export const TOO_DEEP: unique symbol = Symbol('too deep');

/**
 * The value of one JSONL line, or {@link TOO_DEEP}; throws the `JSON.parse` error for a line that is not JSON.
 * The one reading of a line that {@link parseJsonLines} and streamed readers share.
 */
export function readJsonLine(lineText: string): unknown {
  const value: unknown = JSON.parse(lineText);
  return exceedsJsonDepth(lineText) ? TOO_DEEP : value;
}

/** Adds a line number to the issues of one JSONL entry. */
export function withLine(issues: readonly DecodeIssue[], line: number): DecodeIssue[] {
  return issues.map((issue) => ({ ...issue, line }));
}

/** The codec to use for a format, supplied by the registry so this module stays free of concrete codecs. */
export type CodecLookup = (format: FormatName) => Codec;
