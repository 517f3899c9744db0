import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/redact/candidate.js';
import { createRedactor, REDACTED } from '../../src/redact/index.js';
import { secretFlagRule } from '../../src/redact/rules/flags.js';
import { NAMED } from '../../src/redact/rules/inline-assignments.js';
import { pushNamedValue } from '../../src/redact/rules/named-value.js';
import { isReferenceOrPlaceholder, PRINTF, readValue, withoutTrailing } from '../../src/redact/values.js';
import { forEachMatch } from '../../src/redact/windows.js';

// The patterns these replaced: the oracles. Each backtracked super-linearly on one shape of input (a run of
// digits after a secret name, a run of zeros after `%`, a run of `,;)` before another character).
const OLD_NAMED =
  /(?:pass(?:word|wd|phrase)?|pwd|secrets?|credentials?|jwt|bearer|tokens?|keys?|auth|pat)(?:[_-]?[0-9]+)*(?![\w-])(?:([ \t]+(?:is|was)(?:[ \t]*:)?[ \t]+)|([ \t]*[:=](?![=:/>~])[ \t]*))/gi;
const OLD_PRINTF = /^%(?:\([\w.-]{1,40}\))?[-+ 0#]*\d*(?:\.\d+)?[a-zA-Z]$/;
const OLD_TRAILING = /[,;)]+$/;

/** The secret-flag rule as it was: it read every flag's value, even one it was bound to reject. */
function oldLongFlags(text: string): Candidate[] {
  const out: Candidate[] = [];
  forEachMatch(/(?<![\w-])--([A-Za-z][\w-]{0,60})(?:=|[ \t]+)/g, text, undefined, (match, _start, end) => {
    const value = readValue(text, end, true);
    if (value === undefined || text[value.start] === '-') return undefined;
    return pushNamedValue(out, text, match[1] ?? '', value, 'secret-flag') ? value.next : undefined;
  });
  return out;
}

function textOf(pieces: readonly string[], maxLength = 30) {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

/** What a global regex matches when a scan resumes at `from`, as the windowed scans resume it. */
function matchFrom(regex: RegExp, text: string, from: number) {
  regex.lastIndex = from;
  const match = regex.exec(text);
  return match === null ? null : { index: match.index, groups: [...match], lastIndex: regex.lastIndex };
}

const WHITESPACE = [' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\ufeff'];

describe('redaction patterns rewritten to run in linear time', () => {
  it('the prose-name pattern matches what the old one matched, from every position', () => {
    const named = new RegExp(NAMED.source, NAMED.flags);
    const text = textOf([
      'password',
      'Pass',
      'passwd',
      'PWD',
      'key',
      'keys',
      'Token',
      'pat',
      'auth',
      'secret',
      'jwt',
      '1',
      '0',
      '9',
      '_',
      '-',
      'is',
      'was',
      ':',
      '=',
      '/',
      '>',
      '~',
      'a',
      'x',
      '.',
      ...WHITESPACE,
    ]);
    fc.assert(
      fc.property(text, (value) => {
        for (let from = 0; from <= value.length; from++)
          expect(matchFrom(named, value, from)).toEqual(matchFrom(OLD_NAMED, value, from));
      }),
      { numRuns: 2000 },
    );
  });

  it('the format-directive pattern accepts what the old one accepted', () => {
    const pieces = ['(', ')', 'a', '_', '.', '-', '+', ' ', '0', '#', '1', '9', 's', 'd', 'X', '%', '\n'];
    const value = fc
      .tuple(fc.boolean(), textOf([...pieces, '\u00a0'], 12))
      .map(([directive, rest]) => (directive ? `%${rest}` : rest));
    fc.assert(
      fc.property(value, (candidate) => {
        expect(PRINTF.test(candidate)).toBe(OLD_PRINTF.test(candidate));
      }),
      { numRuns: 5000 },
    );
  });

  it('cutting trailing `,;)` leaves what the old replace left', () => {
    fc.assert(
      fc.property(textOf([',', ';', ')', '(', 'a', ' ', '\n', '$'], 20), (value) => {
        expect(value.slice(0, withoutTrailing(value, ',;)'))).toBe(value.replace(OLD_TRAILING, ''));
      }),
      { numRuns: 3000 },
    );
  });

  it('the secret-flag rule masks what it masked when it read every value', () => {
    const text = textOf([
      '--',
      '--password',
      '--api-key',
      '-',
      'a',
      'password',
      '=',
      '$',
      'x9Y!q7Zk',
      '"',
      "'",
      "'-",
      '\\',
      ',',
      '.',
      ' ',
      '\t',
      '\n',
    ]);
    fc.assert(
      fc.property(text, (value) => {
        const out: Candidate[] = [];
        secretFlagRule.find(value, out);
        expect(out).toEqual(oldLongFlags(value));
      }),
      { numRuns: 10_000 },
    );
  });

  // Each input below kept the old pattern busy for minutes to hours; the new ones finish in milliseconds.
  const redactor = createRedactor({});

  it('reads past a secret name followed by a long run of digits', () => {
    const digits = `password${'1'.repeat(100)} x`;
    expect(redactor.text(`${digits}\nmy password is Xy7$abc9!`).text).toBe(
      `${digits}\nmy password is ${REDACTED}`,
    );
  });

  it('tells a long run of zeros after `%` from a format directive', () => {
    const zeros = '0'.repeat(1_000_000);
    expect(isReferenceOrPlaceholder(`%${zeros}!`)).toBe(false);
    expect(isReferenceOrPlaceholder(`%${zeros}d`)).toBe(true);
    expect(redactor.field(`%${zeros}!`, 'password').text).toBe(REDACTED);
  });

  it('reads no flag value twice when flags are glued into one long token', () => {
    const glued = '--a=password=x9Y!q7Zk'.repeat(50_000);
    expect(redactor.text(glued).text).toBe(`--a=password=${REDACTED}`);
    const dashes = '--password='.repeat(100_000);
    expect(redactor.text(dashes).text).toBe(dashes);
  });

  it('masks an unquoted value that is a long run of `)` before its last character', () => {
    expect(redactor.text(`PASSWORD=${')'.repeat(1_000_000)}x`).text).toBe(`PASSWORD=${REDACTED}`);
  });
});
