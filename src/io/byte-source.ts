import { Buffer } from 'node:buffer';
import { readSync } from 'node:fs';

/**
 * Random access to the bytes of a file without holding them: the session loader scans a file once through a
 * small reused buffer, then reads back only the lines it parses. Reading a large file into one fresh buffer
 * costs more than everything else the loader does (each page of it is faulted in once).
 */
export interface ByteSource {
  /** Bytes in the source. */
  readonly length: number;
  /** The bytes of `[start, end)`: a view that stays valid only until the next call. */
  read(start: number, end: number): Buffer;
  /** Calls `found` with the offset of each occurrence of `needle`, in order, until it returns false. */
  search(needle: Buffer, found: (offset: number) => boolean): void;
}

/** A source over bytes already in memory (views, no copies). */
export function bufferSource(buf: Buffer): ByteSource {
  return {
    length: buf.length,
    read: (start, end) => buf.subarray(start, end),
    search(needle, found) {
      for (let at = buf.indexOf(needle); at !== -1; at = buf.indexOf(needle, at + needle.length)) {
        if (!found(at)) return;
      }
    },
  };
}

/** Size of the buffer a file source reads and searches through (it grows for a longer single read). */
export const CHUNK_BYTES = 1 << 20;

/**
 * A source over the first `length` bytes of an open file, read with positioned reads into one reused buffer.
 * The caller owns `fd` and closes it when the source is no longer used.
 */
export function fileSource(fd: number, length: number, chunk = CHUNK_BYTES): ByteSource {
  let scratch = Buffer.allocUnsafe(chunk);
  const read = (start: number, end: number): Buffer => {
    const size = end - start;
    if (size > scratch.length) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
    return scratch.subarray(0, readFully(fd, scratch, size, start));
  };
  return {
    length,
    read,
    search(needle, found) {
      // Windows overlap by the needle's length less one, so an occurrence across two windows is seen once.
      const size = Math.max(chunk, 2 * needle.length);
      const step = size - needle.length + 1;
      for (let base = 0; base < length; base += step) {
        const last = base + size >= length;
        const window = read(base, Math.min(length, base + size));
        for (let at = window.indexOf(needle); at !== -1; at = window.indexOf(needle, at + needle.length)) {
          if (at >= step && !last) break;
          if (!found(base + at)) return;
        }
        if (last) return;
      }
    },
  };
}

/** Reads `size` bytes at `position` into the start of `target`; fewer only at the end of the file. */
export function readFully(fd: number, target: Buffer, size: number, position: number): number {
  let done = 0;
  while (done < size) {
    const read = readSync(fd, target, done, size - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done;
}
