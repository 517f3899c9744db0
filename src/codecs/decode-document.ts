import { CondenseError } from '../errors/condense-error.js';
import { FORMAT_NAMES, type FormatName } from '../model/format.js';
import type { Transcript } from '../model/transcript.js';
import type { Codec, DecodeIssue, DetectScore } from './codec.js';
import {
  type CodecLookup,
  type DocumentEntry,
  type DocumentLayout,
  parseJsonLines,
  readJsonLine,
  TOO_DEEP,
  type TranscriptDocument,
  withLine,
} from './document.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';
import { splitLines } from './lines.js';

/** Options of {@link decodeDocumentWith}. */
export interface DecodeDocumentOptions {
  /** Skip detection and read the text as this format. */
  readonly format?: FormatName;
  /** Used in error messages. */
  readonly fileName?: string;
}

/**
 * Decodes the text of a transcript file of any supported format and layout. Unreadable JSONL lines become
 * issues and `invalid` entries; only input that is not a transcript file at all throws (`INVALID_INPUT`,
 * `UNKNOWN_FORMAT`).
 */
export function decodeDocumentWith(
  lookup: CodecLookup,
  text: string,
  options: DecodeDocumentOptions = {},
): TranscriptDocument {
  const whole = parseWhole(text);
  if (whole.ok) {
    if (exceedsJsonDepth(text)) {
      throw new CondenseError({
        code: 'INVALID_INPUT',
        message: `the input nests JSON more than ${MAX_JSON_DEPTH} levels deep`,
        hint: 'transcripts nest a few dozen levels at most: check that this is the file you meant',
        ...(options.fileName === undefined ? {} : { location: { file: options.fileName } }),
      });
    }
    return decodeJsonValue(lookup, whole.value, text, options);
  }
  return decodeJsonLinesText(lookup, text, options);
}

function parseWhole(text: string): { ok: true; value: unknown } | { ok: false } {
  const start = text.trimStart()[0];
  if (start !== '[' && start !== '{') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function detectIndent(text: string): number {
  const match = /^[[{]\r?\n( +)/.exec(text.trimStart());
  return match?.[1]?.length ?? 0;
}

function decodeJsonValue(
  lookup: CodecLookup,
  value: unknown,
  text: string,
  options: DecodeDocumentOptions,
): TranscriptDocument {
  const indent = detectIndent(text);
  const format = options.format ?? detectFormatOf(lookup, [value], options.fileName);
  const codec = lookup(format);
  if (codec.fileLayout === 'records') {
    const records = Array.isArray(value) && codec.detect(value) === 0 ? value : [value];
    return single(codec, records, 'records', indent);
  }
  if (Array.isArray(value) && value.length > 0 && codec.detect(value) === 0) {
    const entries: DocumentEntry[] = [];
    const issues: DecodeIssue[] = [];
    value.forEach((wire, index) => {
      const result = codec.decode(wire);
      entries.push({ kind: 'transcript', transcript: result.value });
      for (const issue of result.issues) issues.push({ ...issue, path: [index, ...issue.path] });
    });
    return { format, layout: 'json-array', entries, issues, indent };
  }
  return single(codec, value, 'json', indent);
}

function single(codec: Codec, wire: unknown, layout: DocumentLayout, indent: number): TranscriptDocument {
  const result = codec.decode(wire);
  return {
    format: codec.format,
    layout,
    entries: [{ kind: 'transcript', transcript: result.value }],
    issues: result.issues,
    indent,
  };
}

function decodeJsonLinesText(
  lookup: CodecLookup,
  text: string,
  options: DecodeDocumentOptions,
): TranscriptDocument {
  const parsed = parseJsonLines(text);
  if (parsed.values.length === 0 && text.trim() !== '' && parsed.invalid.length > 0) {
    throw new CondenseError({
      code: 'INVALID_INPUT',
      message: 'no line of the input is valid JSON',
      hint: 'condense reads JSON and JSONL transcript files',
      location: { ...(options.fileName === undefined ? {} : { file: options.fileName }), line: 1 },
    });
  }
  const sample = parsed.values.slice(0, 20).map((entry) => entry.value);
  const format = options.format ?? detectFormatOf(lookup, sample, options.fileName);
  const codec = lookup(format);
  const sourceText = new Map<unknown, string>();
  for (const entry of parsed.values) sourceText.set(entry.value, entry.text);
  if (codec.fileLayout === 'records') {
    const result = codec.decode(parsed.values.map((entry) => entry.value));
    return {
      format,
      layout: 'records',
      entries: [{ kind: 'transcript', transcript: result.value }],
      issues: [...parsed.issues, ...result.issues],
      indent: 0,
      sourceText,
    };
  }
  const slots: { line: number; entry: DocumentEntry }[] = [];
  const issues: DecodeIssue[] = [...parsed.issues];
  for (const { value, line } of parsed.values) {
    const result = codec.decode(value);
    slots.push({ line, entry: { kind: 'transcript', transcript: result.value, line } });
    issues.push(...withLine(result.issues, line));
  }
  for (const bad of parsed.invalid) slots.push({ line: bad.line, entry: { kind: 'invalid', ...bad } });
  slots.sort((left, right) => left.line - right.line);
  return { format, layout: 'jsonl', entries: slots.map((slot) => slot.entry), issues, indent: 0, sourceText };
}

/** One line of a JSONL file read by {@link readJsonLinesWith}: a transcript with its source, or unreadable text. */
export type JsonLineEntry =
  | {
      readonly kind: 'transcript';
      readonly transcript: Transcript;
      /** 1-based line. */
      readonly line: number;
      /** The parsed line: an encoder that returns this very value means the line's bytes are unchanged. */
      readonly value: unknown;
      readonly text: string;
    }
  | { readonly kind: 'invalid'; readonly text: string; readonly line: number };

/** A JSONL file of one transcript per line, decoded a line at a time as its lines are asked for. */
export interface JsonLinesReader {
  readonly format: FormatName;
  readonly codec: Codec;
  /** The non-blank lines in order, as {@link decodeDocumentWith}'s entries would be (issues aside). */
  lines(): Generator<JsonLineEntry>;
}

/**
 * Reads a text that {@link decodeDocumentWith} would decode into a `jsonl` layout (one transcript per line) a line
 * at a time, so that a large file's transcripts need not all be alive at once. Undefined for any other text (one
 * JSON document, a format whose file is one transcript, no readable line): decode that whole. Throws what
 * `decodeDocumentWith` throws when the format cannot be detected.
 */
export function readJsonLinesWith(
  lookup: CodecLookup,
  text: string,
  options: DecodeDocumentOptions = {},
): JsonLinesReader | undefined {
  if (parseWhole(text).ok) return undefined;
  const lines = splitLines(text);
  // The same sample as decodeJsonLinesText: the first 20 readable lines. Their values are kept for `lines()`, so
  // no line is parsed twice.
  const sample: unknown[] = [];
  const sampled: ({ value: unknown } | undefined)[] = [];
  for (let index = 0; index < lines.length && sample.length < 20; index++) {
    const value = readLine(lines[index] as string);
    sampled.push(value);
    if (value !== undefined) sample.push(value.value);
  }
  if (sample.length === 0) return undefined;
  const format = options.format ?? detectFormatOf(lookup, sample, options.fileName);
  const codec = lookup(format);
  if (codec.fileLayout === 'records') return undefined;
  return {
    format,
    codec,
    *lines() {
      for (let index = 0; index < lines.length; index++) {
        const lineText = lines[index] as string;
        if (lineText.trim() === '') continue;
        const read = index < sampled.length ? sampled[index] : readLine(lineText);
        yield read === undefined
          ? { kind: 'invalid', text: lineText, line: index + 1 }
          : {
              kind: 'transcript',
              transcript: codec.decode(read.value).value,
              line: index + 1,
              value: read.value,
              text: lineText,
            };
      }
    },
  };
}

/** A readable line's value (boxed: `null` is one), or undefined for a blank, broken or too deep line. */
function readLine(lineText: string): { value: unknown } | undefined {
  if (lineText.trim() === '') return undefined;
  try {
    const value = readJsonLine(lineText);
    return value === TOO_DEEP ? undefined : { value };
  } catch {
    return undefined;
  }
}

/**
 * Picks the format whose codec is most confident about the sample values (one JSON document, or the first
 * lines of a JSONL file). Ties go to the order of {@link FORMAT_NAMES}. A format must recognise every sampled
 * value, except values no format recognises at all (a stray object, another tool's metadata line): while they are
 * at most half the sample they are left to decoding, which reports each, instead of failing the whole file.
 */
export function detectFormatOf(
  lookup: CodecLookup,
  sample: readonly unknown[],
  fileName?: string,
): FormatName {
  const codecs = FORMAT_NAMES.map((format) => ({ format, codec: lookup(format) }));
  const rows = sample.map((value) => codecs.map(({ codec }) => valueScore(codec, value)));
  const recognised = rows.filter((row) => row.some((score) => score > 0));
  const counted = recognised.length * 2 >= rows.length ? recognised : rows;
  let best: { format: FormatName; score: number } | undefined;
  for (const [column, { format }] of codecs.entries()) {
    const score = meanScore(counted, column);
    if (score > 0 && (best === undefined || score > best.score)) best = { format, score };
  }
  if (best === undefined) {
    throw new CondenseError({
      code: 'UNKNOWN_FORMAT',
      message: 'could not recognise the transcript format',
      hint: `pass --format with one of ${FORMAT_NAMES.join(', ')}`,
      ...(fileName === undefined ? {} : { location: { file: fileName } }),
    });
  }
  return best.format;
}

/** How sure a codec is of one value; an array of values (a JSON array of transcripts) by its first five. */
function valueScore(codec: Codec, value: unknown): DetectScore {
  const score = codec.detect(value);
  if (score === 0 && Array.isArray(value) && value.length > 0)
    return minScore(value.slice(0, 5).map((element) => codec.detect(element)));
  return score;
}

/** A codec's mean score over the rows, or 0 when it does not recognise one of them. */
function meanScore(rows: readonly (readonly DetectScore[])[], column: number): number {
  let total = 0;
  for (const row of rows) {
    const score = row[column] ?? 0;
    if (score === 0) return 0;
    total += score;
  }
  return rows.length === 0 ? 0 : total / rows.length;
}

function minScore(scores: readonly DetectScore[]): DetectScore {
  let min: DetectScore = 2;
  for (const score of scores) if (score < min) min = score;
  return min;
}
