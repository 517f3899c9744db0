import { Buffer } from 'node:buffer';
import { CHUNK_BYTES, fileSource, readFully } from '../io/byte-source.js';
import type { JsonlLines } from '../io/jsonl-scan.js';
import { parseSpan } from '../io/jsonl-scan.js';
import type { SessionDialect } from './dialect.js';
import { lineSkeleton, parseSkeleton, probeSkeleton, type ScannedSession } from './scan-skeletons.js';
import { applyValue, type LineSkeleton, UNPARSED } from './skeleton.js';

const NEWLINE = 0x0a;

/**
 * The pre-filter's scan (`scanFromBytes`) of the first `length` bytes of an open file, read once through one
 * reused buffer instead of into memory whole: line spans, skeletons from bytes, and the lines the bytes cannot
 * decide parsed on the way. Later reads (the chain's lines) go back to the file. Lines are split, trimmed and
 * numbered exactly as `scanLines` does, so the result is the same as scanning the whole file in memory.
 */
export function scanFile(
  fd: number,
  length: number,
  dialect: SessionDialect,
  chunk = CHUNK_BYTES,
): ScannedSession {
  const starts: number[] = [];
  const ends: number[] = [];
  const numbers: number[] = [];
  const skeletons: LineSkeleton[] = [];
  let parsedLines = 0;
  let parsedBytes = 0;
  let buf: Buffer = Buffer.allocUnsafe(chunk);
  let base = 0;
  let filled = 0;
  let line = 0;
  let bom = true;
  while (base + filled < length) {
    if (filled === buf.length) buf = grown(buf);
    const wanted = Math.min(buf.length - filled, length - base - filled);
    const read = readFully(fd, buf.subarray(filled), wanted, base + filled);
    filled += read;
    const atEnd = read < wanted || base + filled >= length;
    const view = buf.subarray(0, filled);
    let position = 0;
    if (bom) {
      bom = false;
      if (filled >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) position = 3;
    }
    while (position < filled) {
      const newline = view.indexOf(NEWLINE, position);
      if (newline === -1 && !atEnd) break;
      const stop = newline === -1 ? filled : newline;
      line++;
      let start = position;
      let end = stop;
      while (start < end && isBlank(buf[start] as number)) start++;
      while (end > start && isBlank(buf[end - 1] as number)) end--;
      if (end > start) {
        starts.push(base + start);
        ends.push(base + end);
        numbers.push(line);
        const skeleton = lineSkeleton(skeletons.length, line, base + start, base + end);
        skeletons.push(skeleton);
        if (!probeSkeleton(buf, start, end, skeleton, dialect)) {
          applyValue(skeleton, parseSpan(buf, start, end), dialect);
          parsedLines++;
          parsedBytes += end - start;
        }
      }
      position = stop + 1;
    }
    if (atEnd) break;
    buf.copyWithin(0, position, filled);
    base += position;
    filled -= position;
  }
  const lines: JsonlLines = { count: starts.length, starts, ends, numbers, lastLine: line };
  const source = fileSource(fd, length, chunk);
  const session: ScannedSession = { source, lines, dialect, skeletons, parsedLines, parsedBytes };
  // A crash leaves the last line truncated: it is always parsed, as the in-memory scan does.
  const last = skeletons[skeletons.length - 1];
  if (last !== undefined && last.value === UNPARSED && last.readable) parseSkeleton(session, last);
  return session;
}

function grown(buf: Buffer): Buffer {
  const larger = Buffer.allocUnsafe(buf.length * 2);
  buf.copy(larger);
  return larger;
}

function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d;
}
