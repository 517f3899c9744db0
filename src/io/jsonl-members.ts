import type { Buffer } from 'node:buffer';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from '../codecs/json-chars.js';
import { type ScalarRead, UNCERTAIN } from './jsonl-scan.js';

/**
 * Reads the top-level scalar members of a JSON object line from its two flat ends, without parsing it: forward
 * from `{` until the first member whose value is an object or array, and backward from `}` until the last such
 * value. Both walks track string state (escapes included), so every member they see is a top-level member — no
 * guessing. What lies between (nested values and any members among them, the "middle") is left to byte search
 * (`probeMiddle`). Each walk is one tight loop over the bytes of the flat part.
 */

/** A key that was not among the flat members. */
export const NOT_FOUND: unique symbol = Symbol('not-found');

/** What {@link readFlatMembers} fills in. */
export interface FlatMembers {
  /** Per wanted key: its value, or {@link NOT_FOUND}. */
  readonly values: (ScalarRead | typeof NOT_FOUND)[];
  /** Start of the first nested value (`end` when the object is flat). */
  middleStart: number;
  /** End of the last nested value (`middleStart` when the object is flat). */
  middleEnd: number;
  /** False when the bytes are not a plain JSON object: parse the line instead. */
  valid: boolean;
}

/** {@link matchKey} for a key written with escapes: it may spell a wanted key, so the line must be parsed. */
const ESCAPED_KEY = -2;

/** A reusable result holder for `count` wanted keys (at most 30). */
export function flatMembers(count: number): FlatMembers {
  return { values: new Array(count).fill(NOT_FOUND), middleStart: 0, middleEnd: 0, valid: true };
}

/**
 * Fills `out` with the values of the wanted `keys` (key text as bytes, without quotes) found among the flat
 * members of the object line `[start, end)` (which must start with `{` and end with `}`). A later member wins
 * over an earlier one, as in `JSON.parse`.
 */
export function readFlatMembers(
  buf: Buffer,
  start: number,
  end: number,
  keys: readonly Buffer[],
  out: FlatMembers,
): void {
  out.values.fill(NOT_FOUND);
  out.valid = true;
  const last = end - 1;
  // Forward: a key is the string right before a colon; its value runs from the colon to the next comma.
  let stringStart = -1;
  let stringEnd = -1;
  let wanted = -1;
  let valueStart = -1;
  let position = start + 1;
  while (position < last) {
    const byte = buf[position] as number;
    if (byte === QUOTE) {
      stringStart = position;
      position++;
      for (;;) {
        if (position >= last) {
          invalid(out);
          return;
        }
        const inner = buf[position] as number;
        if (inner === BACKSLASH) position += 2;
        else if (inner === QUOTE) break;
        else position++;
      }
      stringEnd = position + 1;
      position++;
    } else if (byte === COLON) {
      if (stringEnd < 0) {
        invalid(out);
        return;
      }
      wanted = matchKey(buf, stringStart + 1, stringEnd - 1, keys);
      if (wanted === ESCAPED_KEY) {
        invalid(out);
        return;
      }
      valueStart = position + 1;
      position++;
    } else if (byte === COMMA) {
      if (wanted >= 0) out.values[wanted] = scalarAt(buf, valueStart, position);
      wanted = -1;
      position++;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      break;
    } else position++;
  }
  if (position >= last) {
    if (wanted >= 0) out.values[wanted] = scalarAt(buf, valueStart, last);
    out.middleStart = end;
    out.middleEnd = end;
    return;
  }
  out.middleStart = position;
  readTrailer(buf, position, last, keys, out);
}

/** Walks members backward from the closing brace until a nested value ends. */
function readTrailer(
  buf: Buffer,
  floor: number,
  last: number,
  keys: readonly Buffer[],
  out: FlatMembers,
): void {
  let seen = 0;
  let valueEnd = last;
  let colon = -1;
  let position = last - 1;
  while (position > floor) {
    const byte = buf[position] as number;
    if (byte === QUOTE) {
      const closing = position;
      position--;
      while (position > floor && (buf[position] !== QUOTE || escapedAt(buf, position, floor))) position--;
      if (position <= floor) {
        invalid(out);
        return;
      }
      if (colon >= 0) {
        // The string just walked is a key: the one before the colon met last.
        const wanted = matchKey(buf, position + 1, closing, keys);
        if (wanted === ESCAPED_KEY) {
          invalid(out);
          return;
        }
        if (wanted >= 0 && (seen & (1 << wanted)) === 0) {
          seen |= 1 << wanted;
          out.values[wanted] = scalarAt(buf, colon + 1, valueEnd);
        }
        colon = -1;
      }
      position--;
    } else if (byte === COLON) {
      colon = position;
      position--;
    } else if (byte === COMMA) {
      valueEnd = position;
      position--;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      out.middleEnd = position + 1;
      return;
    } else position--;
  }
  invalid(out);
}

function invalid(out: FlatMembers): void {
  out.valid = false;
}

/** True when the byte at `at` is escaped (an odd run of backslashes before it). */
function escapedAt(buf: Buffer, at: number, floor: number): boolean {
  let run = 0;
  for (let position = at - 1; position > floor && buf[position] === BACKSLASH; position--) run++;
  return run % 2 === 1;
}

/** Index of the wanted key the bytes `[from, to)` spell, -1 for another key, or {@link ESCAPED_KEY}. */
function matchKey(buf: Buffer, from: number, to: number, keys: readonly Buffer[]): number {
  const length = to - from;
  for (let position = from; position < to; position++) if (buf[position] === BACKSLASH) return ESCAPED_KEY;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as Buffer;
    if (key.length !== length || key[0] !== buf[from]) continue;
    let offset = 1;
    while (offset < length && buf[from + offset] === key[offset]) offset++;
    if (offset === length) return index;
  }
  return -1;
}

/** The scalar in `[from, to)` (whitespace around it allowed): a string without escapes, null, true, false. */
function scalarAt(buf: Buffer, from: number, to: number): ScalarRead {
  let at = from;
  let stop = to;
  while (at < stop && isSpace(buf[at] as number)) at++;
  while (stop > at && isSpace(buf[stop - 1] as number)) stop--;
  if (buf[at] === QUOTE) {
    for (let position = at + 1; position < stop - 1; position++) {
      if (buf[position] === BACKSLASH) return UNCERTAIN;
    }
    return buf.toString('utf8', at + 1, stop - 1);
  }
  const length = stop - at;
  if (length === 4 && buf[at] === 0x6e) return null;
  if (length === 4 && buf[at] === 0x74) return true;
  if (length === 5 && buf[at] === 0x66) return false;
  return undefined;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}
