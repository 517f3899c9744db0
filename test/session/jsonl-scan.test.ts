import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatMembers, NOT_FOUND, readFlatMembers } from '../../src/io/jsonl-members.js';
import {
  bufferView,
  headerEnd,
  keyPattern,
  probeKey,
  readScalar,
  scanLines,
  UNCERTAIN,
} from '../../src/io/jsonl-scan.js';
import { spacedJson } from './generate-session.js';

const KEYS = ['uuid', 'parentUuid', 'type', 'a', 'message'];

const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string(),
    fc.constantFrom('uuid', '"uuid":"x"', '{', '}', '[', 'a\\"b', 'é→'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
})).value;

const topObject = fc.dictionary(fc.constantFrom(...KEYS), jsonValue, { maxKeys: 5 });

function expected(value: unknown): unknown {
  return typeof value === 'string' || typeof value === 'boolean' || value === null ? value : undefined;
}

describe('jsonl-scan', () => {
  it('proves a top-level key from bytes only when the parsed object agrees', () => {
    fc.assert(
      fc.property(topObject, fc.boolean(), fc.constantFrom(...KEYS), (object, spaced, key) => {
        const text = spaced ? spacedJson(object) : JSON.stringify(object);
        const buf = Buffer.from(text, 'utf8');
        const at = probeKey(buf, 0, buf.length, headerEnd(buf, 0, buf.length), keyPattern(key), false);
        if (at === UNCERTAIN) return;
        if (at === -1) {
          expect(Object.hasOwn(object, key)).toBe(false);
          return;
        }
        const read = readScalar(buf, at, buf.length);
        if (read === UNCERTAIN) return;
        expect(read).toEqual(expected((object as Record<string, unknown>)[key]));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads flat members exactly as JSON.parse sees them, and bounds the nested middle', () => {
    const keys = KEYS.map((key) => Buffer.from(key, 'utf8'));
    const out = flatMembers(keys.length);
    fc.assert(
      fc.property(topObject, fc.boolean(), (object, spaced) => {
        const text = spaced ? spacedJson(object) : JSON.stringify(object);
        const buf = Buffer.from(text, 'utf8');
        readFlatMembers(buf, 0, buf.length, keys, out);
        expect(out.valid).toBe(true);
        KEYS.forEach((key, index) => {
          const found = out.values[index];
          if (found === NOT_FOUND || found === UNCERTAIN) return;
          expect(found).toEqual(expected((object as Record<string, unknown>)[key]));
        });
        // Every scalar member outside the middle was seen: a key missing from the flat parts and the middle is
        // absent, or holds the nested value that opens the middle.
        const middle = buf
          .subarray(out.middleStart, Math.max(out.middleStart, out.middleEnd))
          .toString('utf8');
        KEYS.forEach((key, index) => {
          if (out.values[index] === NOT_FOUND && !middle.includes(JSON.stringify(key)))
            expect(expected((object as Record<string, unknown>)[key])).toBeUndefined();
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('trusts a single match of a key the record is known to have', () => {
    fc.assert(
      fc.property(topObject, fc.string(), (object, uuid) => {
        const record = { ...object, uuid };
        const buf = Buffer.from(JSON.stringify(record), 'utf8');
        const at = probeKey(buf, 0, buf.length, headerEnd(buf, 0, buf.length), keyPattern('uuid'), true);
        if (at === UNCERTAIN) return;
        const read = readScalar(buf, at as number, buf.length);
        if (read !== UNCERTAIN) expect(read).toBe(uuid);
      }),
      { numRuns: 2000 },
    );
  });

  it('splits lines like text.split, dropping blanks, CRs and a byte-order mark, keeping line numbers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('{"a":1}', '', '  ', '{"b":"é"}\r', 'x'), { maxLength: 12 }),
        fc.boolean(),
        (lines, bom) => {
          const text = `${bom ? '\ufeff' : ''}${lines.join('\n')}`;
          const scanned = scanLines(bufferView(Buffer.from(text, 'utf8')));
          const buf = Buffer.from(text, 'utf8');
          const got = Array.from({ length: scanned.count }, (_, index) => [
            scanned.numbers[index],
            buf.toString('utf8', scanned.starts[index], scanned.ends[index]),
          ]);
          const want = lines.flatMap((line, index) => (line.trim() === '' ? [] : [[index + 1, line.trim()]]));
          expect(got).toEqual(want);
        },
      ),
    );
  });

  it('reads scalars and refuses strings with escapes', () => {
    const buf = Buffer.from('"abc" null true false 12 "a\\"b" "open', 'utf8');
    expect(readScalar(buf, 0, buf.length)).toBe('abc');
    expect(readScalar(buf, 6, buf.length)).toBeNull();
    expect(readScalar(buf, 11, buf.length)).toBe(true);
    expect(readScalar(buf, 16, buf.length)).toBe(false);
    expect(readScalar(buf, 22, buf.length)).toBeUndefined();
    expect(readScalar(buf, 25, buf.length)).toBe(UNCERTAIN);
    expect(readScalar(buf, 32, buf.length)).toBe(UNCERTAIN);
  });
});
