import { Buffer } from 'node:buffer';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from '../codecs/json-chars.js';

/**
 * Byte-level reading of JSONL without parsing it: line spans, and the top-level keys of an object line that the
 * bytes alone can prove (see also `jsonl-members.ts`, which reads the flat members at both ends of a line).
 * Everything here rests on one property of JSON text: inside a string every `"` is escaped, so the bytes `"key"`
 * followed by `:` can only be an object key, never string content. What the bytes cannot prove (a key that may
 * sit in a nested object, a string with escapes) comes back as {@link UNCERTAIN}, and the caller parses that line
 * instead. Searches are bounded to their line: an unbounded miss would scan the rest of the file.
 */

/** A probe could not decide from bytes alone: parse the line. */
export const UNCERTAIN: unique symbol = Symbol('uncertain');

/** What {@link readScalar} found: a string, `null`, a boolean, `undefined` for any other value, or {@link UNCERTAIN}. */
export type ScalarRead = string | null | boolean | undefined | typeof UNCERTAIN;

/** The lines of a JSONL buffer: byte spans (trimmed, `\r` dropped) and 1-based line numbers of non-blank lines. */
export interface JsonlLines {
  readonly count: number;
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  readonly numbers: readonly number[];
  /** 1-based number of the last line, blank or not (0 for an empty buffer). */
  readonly lastLine: number;
}

const NEWLINE = 0x0a;

/** A zero-copy `Buffer` view of `bytes`: `Buffer#indexOf` searches multi-byte patterns at memchr speed. */
export function bufferView(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Splits a JSONL buffer into line spans with one `indexOf` per line; a UTF-8 byte-order mark is skipped. */
export function scanLines(bytes: Uint8Array): JsonlLines {
  const buf = bufferView(bytes);
  const starts: number[] = [];
  const ends: number[] = [];
  const numbers: number[] = [];
  const length = buf.length;
  let position = length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let line = 0;
  while (position < length) {
    line++;
    const newline = buf.indexOf(NEWLINE, position);
    const stop = newline === -1 ? length : newline;
    let start = position;
    let end = stop;
    while (start < end && isBlank(buf[start] as number)) start++;
    while (end > start && isBlank(buf[end - 1] as number)) end--;
    if (end > start) {
      starts.push(start);
      ends.push(end);
      numbers.push(line);
    }
    position = stop + 1;
  }
  return { count: starts.length, starts, ends, numbers, lastLine: line };
}

function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d;
}

/** The bytes `"key"` for {@link probeKey}. */
export function keyPattern(key: string): Buffer {
  return Buffer.from(JSON.stringify(key), 'utf8');
}

/** True when the span looks like one JSON object (`{` … `}`); anything else must be parsed to be judged. */
export function isObjectSpan(buf: Buffer, start: number, end: number): boolean {
  return end - start >= 2 && buf[start] === OPEN_BRACE && buf[end - 1] === CLOSE_BRACE;
}

/**
 * End of an object line's header: the bytes before its first nested object or array. A key found there is a
 * top-level key. A brace inside a header string only shortens the header (the answer stays correct).
 */
export function headerEnd(buf: Buffer, start: number, end: number): number {
  const last = end - 1;
  const brace = buf.indexOf(OPEN_BRACE, start + 1);
  const limit = brace === -1 || brace > last ? last : brace;
  const bracket = buf.subarray(start, limit).indexOf(OPEN_BRACKET);
  return bracket === -1 ? limit : start + bracket;
}

/**
 * Offset of the value of top-level key `pattern` (from {@link keyPattern}) in the object line `[start, end)`,
 * `-1` when the line has no such key anywhere, or {@link UNCERTAIN}. Proofs, cheapest first: the key lies in the
 * header; the last occurrence has no closing bracket after it (so it is at depth 1); or, when `unique` is
 * allowed, the key occurs exactly once in the line (the caller knows this record type always has the key at top
 * level, and checks the lines it parses).
 */
export function probeKey(
  buf: Buffer,
  start: number,
  end: number,
  header: number,
  pattern: Buffer,
  unique: boolean,
): number | typeof UNCERTAIN {
  const inHeader = buf.subarray(start, header).indexOf(pattern);
  if (inHeader !== -1) return valueAfterKey(buf, start + inHeader + pattern.length, end);
  if (header >= end - 1) return -1;
  const tail = buf.subarray(header, end);
  const last = tail.lastIndexOf(pattern);
  if (last === -1) return -1;
  const keyEnd = header + last + pattern.length;
  const value = valueAfterKey(buf, keyEnd, end);
  if (value === UNCERTAIN) return UNCERTAIN;
  const after = buf.subarray(keyEnd, end - 1);
  if (after.indexOf(CLOSE_BRACE) === -1 && after.indexOf(CLOSE_BRACKET) === -1) return value;
  if (unique && tail.indexOf(pattern) === last) return value;
  return UNCERTAIN;
}

/**
 * Offset of the value of key `pattern` among the members between an object's nested values (`[from, to)`, as
 * left by `readFlatMembers`), `-1` when the key does not occur there, or {@link UNCERTAIN}. A match here may sit
 * inside a nested value, so it is trusted only when `unique` is allowed (the record type always has the key at
 * top level) and it is the only match.
 */
export function probeMiddle(
  buf: Buffer,
  from: number,
  to: number,
  pattern: Buffer,
  unique: boolean,
): number | typeof UNCERTAIN {
  const middle = buf.subarray(from, to);
  const first = middle.indexOf(pattern);
  if (first === -1) return -1;
  if (!unique || middle.lastIndexOf(pattern) !== first) return UNCERTAIN;
  return valueAfterKey(buf, from + first + pattern.length, to);
}

/** Offset of the value after a key's closing quote: skips whitespace and the colon. */
function valueAfterKey(buf: Buffer, at: number, end: number): number | typeof UNCERTAIN {
  let position = at;
  while (position < end && isSpace(buf[position] as number)) position++;
  if (buf[position] !== COLON) return UNCERTAIN;
  position++;
  while (position < end && isSpace(buf[position] as number)) position++;
  return position < end ? position : UNCERTAIN;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * The scalar value starting at `at`: a string without escapes, `null`, `true`, `false`; `undefined` for any other
 * value (number, object, array); {@link UNCERTAIN} for a string with escapes or one that does not end in the span.
 */
export function readScalar(buf: Buffer, at: number, end: number): ScalarRead {
  const first = buf[at];
  if (first === QUOTE) {
    const close = buf.subarray(at + 1, end).indexOf(QUOTE);
    if (close === -1) return UNCERTAIN;
    const stop = at + 1 + close;
    if (buf.subarray(at + 1, stop).indexOf(BACKSLASH) !== -1) return UNCERTAIN;
    return buf.toString('utf8', at + 1, stop);
  }
  if (matches(buf, at, end, 'null')) return null;
  if (matches(buf, at, end, 'true')) return true;
  if (matches(buf, at, end, 'false')) return false;
  return undefined;
}

function matches(buf: Buffer, at: number, end: number, word: string): boolean {
  if (at + word.length > end) return false;
  for (let index = 0; index < word.length; index++) {
    if (buf[at + index] !== word.charCodeAt(index)) return false;
  }
  return true;
}

/** Parses one span as JSON; `UNCERTAIN` never comes back: a span that is not JSON gives the parse error. */
export function parseSpan(
  buf: Buffer,
  start: number,
  end: number,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string } {
  try {
    return { ok: true, value: JSON.parse(buf.toString('utf8', start, end)) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
