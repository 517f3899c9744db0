import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks, StreamedArray } from '../../src/io/json-chunks.js';

/** Any JSON-ish value, with streamed arrays in place of some arrays and values JSON leaves out or turns to null. */
const valueArb: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({
        unit: fc.constantFrom('\n', '\r', '\t', '"', '\\', '\u2028', '\u0000', '\ud800', 'é', ' '),
      }),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.constant(new Date(0)),
    ),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => new StreamedArray(() => items)),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

const spaceArb = fc.constantFrom<number | string | undefined>(undefined, 0, 1, 2, 4, 12, '\t', '', '--');

describe('jsonChunks (property)', () => {
  it('joins to exactly what JSON.stringify prints, at any indentation', () => {
    fc.assert(
      fc.property(valueArb, spaceArb, fc.constantFrom('', '\n'), (value, space, end) => {
        const expected = JSON.stringify(value, null, space) ?? 'null';
        expect([...jsonChunks(value, { space, end })].join('')).toBe(expected + end);
      }),
      { numRuns: 600 },
    );
  });

  it('writes a plain object holding streamed arrays one property at a time, as JSON.stringify would', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 4 }), valueArb, { maxKeys: 6 }),
        fc.array(valueArb, { maxLength: 6 }),
        spaceArb,
        (fields, items, space) => {
          const document = { ...fields, streamed: new StreamedArray(() => items), after: fields };
          expect([...jsonChunks(document, { space })].join('')).toBe(JSON.stringify(document, null, space));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('jsonChunks', () => {
  it('makes the items of a streamed array only as chunks are asked for, in bounded chunks', () => {
    let made = 0;
    const items = new StreamedArray(function* () {
      for (let index = 0; index < 20_000; index++) {
        made++;
        yield { index, text: 'x'.repeat(50) };
      }
    });
    const chunks = jsonChunks({ head: 1, items, tail: [2] }, { space: 2, end: '\n' });
    const first = chunks.next();
    expect(first.done).toBe(false);
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(2_000);
    const rest = [...chunks];
    expect(rest.length).toBeGreaterThan(10);
    for (const chunk of [first.value as string, ...rest].slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(64 * 1024);
      expect(chunk.length).toBeLessThan(66 * 1024);
    }
    expect(made).toBe(20_000);
  });

  it('writes empty streamed arrays and objects as [] and {}', () => {
    const empty = new StreamedArray(() => []);
    expect([...jsonChunks({ a: empty, b: {}, c: [] }, { space: 2 })].join('')).toBe(
      '{\n  "a": [],\n  "b": {},\n  "c": []\n}',
    );
    expect([...jsonChunks(empty)].join('')).toBe('[]');
  });
});
