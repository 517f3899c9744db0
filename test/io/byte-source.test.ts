import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferSource, fileSource } from '../../src/io/byte-source.js';

const dir = mkdtempSync(join(tmpdir(), 'condense-byte-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function offsets(source: ReturnType<typeof bufferSource>, needle: Buffer): number[] {
  const found: number[] = [];
  source.search(needle, (at) => {
    found.push(at);
    return true;
  });
  return found;
}

describe('fileSource', () => {
  it('reads and finds what the bytes in memory hold, whatever its buffer size (even below the needle)', () => {
    let index = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '"id"', '\n'), { maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom('"id"', 'ab', 'a"id"b'),
        (pieces, chunk, text) => {
          const bytes = Buffer.from(pieces.join(''));
          const needle = Buffer.from(text);
          const path = join(dir, `bytes-${index++}`);
          writeFileSync(path, bytes);
          const fd = openSync(path, 'r');
          try {
            const source = fileSource(fd, bytes.length, chunk);
            expect(offsets(source, needle)).toEqual(offsets(bufferSource(bytes), needle));
            const start = Math.floor(bytes.length / 3);
            expect(source.read(start, bytes.length)).toEqual(bytes.subarray(start));
          } finally {
            closeSync(fd);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
