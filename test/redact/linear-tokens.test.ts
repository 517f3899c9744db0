import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/redact/index.js';
import { readValue, type ValueSpan } from '../../src/redact/values.js';

// The value reader as it was: the oracle. It read a value behind two or more backslashes to its closing quote by
// a scan, to the end of the line when no quote of its depth followed.

function oldEndsUnquoted(code: number): boolean {
  return code <= 0x20 || [0x22, 0x27, 0x60, 0x3b, 0x26, 0x7c, 0x85, 0xa0, 0x2028, 0x2029].includes(code);
}

function oldBackslashRun(text: string, pos: number): number {
  let end = pos;
  while (text.charCodeAt(end) === 0x5c) end++;
  return end - pos;
}

function oldReadValue(text: string, pos: number, unquoted: boolean): ValueSpan | undefined {
  const first = text.charCodeAt(pos);
  if (first === 0x22 || first === 0x27 || first === 0x60) return oldReadQuoted(text, pos, first);
  if (first === 0x5c) {
    const escapes = oldBackslashRun(text, pos);
    if (text.charCodeAt(pos + escapes) === 0x22)
      return escapes === 1
        ? oldReadEscapedQuoted(text, pos + 2)
        : oldReadDeepQuoted(text, pos + escapes + 1, escapes);
  }
  if (!unquoted) return undefined;
  let end = pos;
  while (end < text.length && !oldEndsUnquoted(text.charCodeAt(end))) {
    if (text.charCodeAt(end) === 0x5c) {
      const run = oldBackslashRun(text, end);
      const after = text.charCodeAt(end + run);
      if (after === 0x22 || after <= 0x20) break;
      end += run;
    } else end++;
  }
  const next = end;
  while (end > pos && [0x2c, 0x2e, 0x29, 0x7d, 0x5d, 0x3a].includes(text.charCodeAt(end - 1))) end--;
  return end > pos ? { start: pos, end, quoted: false, next } : undefined;
}

function oldReadDeepQuoted(text: string, start: number, escapes: number): ValueSpan | undefined {
  let run = 0;
  for (let index = start; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code === 0x0a || code === 0x0d) && run === 0) return undefined;
    if (code === 0x22 && run === escapes)
      return { start, end: index - escapes, quoted: true, next: index + 1 };
    run = code === 0x5c ? run + 1 : 0;
  }
  return undefined;
}

function oldReadQuoted(text: string, pos: number, quote: number): ValueSpan | undefined {
  for (let index = pos + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === quote) return { start: pos + 1, end: index, quoted: true, next: index + 1 };
    if (code === 0x0a || code === 0x0d) return undefined;
    if (code === 0x5c) index++;
  }
  return undefined;
}

function oldReadEscapedQuoted(text: string, start: number): ValueSpan | undefined {
  let index = start;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x0a || code === 0x0d) return undefined;
    if (code !== 0x5c) {
      index++;
      continue;
    }
    const after = text.charCodeAt(index + 1);
    if (after === 0x22) return { start, end: index, quoted: true, next: index + 2 };
    if (after === 0x5c) index += text.charCodeAt(index + 2) === 0x5c ? 4 : 3;
    else index += 2;
  }
  return undefined;
}

function textOf(pieces: readonly string[], maxLength = 30) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

const PIECES = [
  '--password=',
  '--token=',
  ':_authToken=',
  'password=',
  'password',
  '-',
  '=',
  '$',
  '\\',
  '\\\\',
  '"',
  '\\\\\\"',
  "'",
  ' ',
  '\n',
  '\r',
  '\u2028',
  '\u3000',
  'a',
  'x',
  'Q',
  '7',
  '(',
  ')',
  ',',
  '.',
  '%',
  '{',
  '}',
  '«redacted»',
  'abcdef…wxyz',
  '…',
  '_here',
];

describe('values are read in linear time', () => {
  it('reads every value as the old reader did, whatever the order of reads', () => {
    fc.assert(
      fc.property(
        textOf(PIECES),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 20 }),
        (text, unquoted, order) => {
          const positions = [
            ...Array(text.length + 1).keys(),
            ...order.map((index) => index % (text.length + 1)),
          ];
          for (const pos of positions)
            expect(readValue(text, pos, unquoted)).toEqual(oldReadValue(text, pos, unquoted));
        },
      ),
      { numRuns: 3000 },
    );
  });

  // Each input below kept the old reader busy for minutes; it now takes a fraction of a second.
  const redactor = createRedactor({});

  it('finds the closing quotes of values behind ever more backslashes in one pass', () => {
    let text = '';
    for (let escapes = 2; text.length < 4_000_000; escapes++) text += `PASSWORD=${'\\'.repeat(escapes)}"x `;
    expect(redactor.text(text).text).toBe(text);
  });
});
