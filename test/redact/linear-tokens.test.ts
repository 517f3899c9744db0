import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Candidate, pushCandidate } from '../../src/redact/candidate.js';
import { createRedactor, REDACTED } from '../../src/redact/index.js';
import { isMasked, maskSpans } from '../../src/redact/mask.js';
import { classifySecretName, nameWords, type SecretNameClass } from '../../src/redact/names.js';
import { credentialFileRule } from '../../src/redact/rules/assignments.js';
import { secretFlagRule } from '../../src/redact/rules/flags.js';
import {
  isPlausibleSecret,
  isPlausibleValue,
  isReferenceOrPlaceholder,
  looksLikeCredential,
  PRINTF,
  readValue,
  type ValueSpan,
  withoutTrailing,
} from '../../src/redact/values.js';
import { forEachMatch } from '../../src/redact/windows.js';

// The value reader and plausibility tests as they were: the oracles. They read an unquoted value to the end of
// its token, a value behind two or more backslashes to its closing quote, and scanned the whole value to judge
// it, again for every name glued inside the value.

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

const OLD_NOT_VALUES = new Set(
  'true false null none nil undefined yes no on off nan redacted required optional hidden secret password'.split(
    ' ',
  ),
);
const OLD_TYPE_NAMES = new Set(
  'str string int integer number bool boolean bytes any object secretstr char text float double unknown'.split(
    ' ',
  ),
);

function oldIsReferenceOrPlaceholder(value: string): boolean {
  if (OLD_NOT_VALUES.has(value.toLowerCase())) return true;
  const first = value[0];
  const last = value[value.length - 1];
  if (first === '$' || first === '!') return true;
  if (PRINTF.test(value)) return true;
  if (first === '%' && last === '%') return true;
  if (first === '{' && last === '}') return true;
  if (first === '<' && last === '>') return true;
  if (first === '[' && last === ']') return true;
  if (value.startsWith('{{') || value.startsWith('{%')) return true;
  if (/^[*xX.•…#_-]+$/.test(value)) return true;
  if (/^your[_-]/i.test(value) || /[_-]here$/i.test(value)) return true;
  if (/^(?:your|my)[_-]?(?:password|passwd|pass|api[_-]?key|key|token|secret|user(?:name)?)$/i.test(value))
    return true;
  if (
    /^(?:os\.environ|os\.getenv|process\.env|env\(|getenv|ENV\[|System\.getenv|Deno\.env|import\.meta\.env|secrets\.|vault:|ssm:|arn:aws:secretsmanager|op:\/\/|ref\+|config\.|settings\.)/i.test(
      value,
    )
  )
    return true;
  if (!/^(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]+)*\/?$/.test(value)) return false;
  return (
    /^[~.]/.test(value) ||
    /\.(?:json|pem|key|txt|p12|pfx|crt|cer|der|jks|keystore|env|ya?ml|toml|ini|conf|cfg)$/i.test(value) ||
    value.split('/').length > 3
  );
}

function oldLooksLikeCode(value: string, name: string): boolean {
  if (value.includes('(')) return true;
  if (/^[A-Za-z_$][\w$]*(?:(?:\.|->|::|\?\.)[A-Za-z_$][\w$]*)+$/.test(value)) return true;
  const bare = value.slice(0, withoutTrailing(value, ',;)'));
  if (OLD_TYPE_NAMES.has(bare.toLowerCase())) return true;
  if (/^[A-Za-z_]\w*$/.test(bare)) {
    const lower = bare.toLowerCase();
    if (lower === name.toLowerCase() || nameWords(name).join('_') === lower) return true;
    if (nameWords(bare).join('_') === nameWords(name).join('_')) return true;
    const member = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    if (name.includes('.') && lower.length >= 2 && (member.startsWith(lower) || member.endsWith(lower)))
      return true;
  }
  return false;
}

function oldLooksLikeCredential(value: string): boolean {
  if (value.length < 8 || /\s/.test(value)) return false;
  return /[0-9]/.test(value) || /.[A-Z]/.test(value);
}

function oldIsPlausibleSecret(value: string, name: string, nameClass: SecretNameClass, quoted: boolean) {
  const trimmed = value.trim();
  if (trimmed.length === 0 || isMasked(trimmed)) return false;
  if (oldIsReferenceOrPlaceholder(trimmed)) return false;
  if (!quoted && oldLooksLikeCode(trimmed, name)) return false;
  if (nameClass === 'weak') return oldLooksLikeCredential(trimmed);
  return true;
}

function oldPushNamedValue(out: Candidate[], text: string, name: string, value: ValueSpan): boolean {
  const nameClass = classifySecretName(name);
  if (nameClass === undefined) return false;
  if (!oldIsPlausibleSecret(text.slice(value.start, value.end), name, nameClass, value.quoted)) return false;
  pushCandidate(out, value.start, value.end, 'secret-flag', nameClass === 'password' ? 'full' : 'ends');
  return true;
}

/** The secret-flag rule over the old reader and tests. */
function oldLongFlags(text: string): Candidate[] {
  const out: Candidate[] = [];
  forEachMatch(/(?<![\w-])--([A-Za-z][\w-]{0,60})(?:=|[ \t]+)/g, text, undefined, (match, _start, end) => {
    const name = match[1] ?? '';
    if (text[end] === '-' || classifySecretName(name) === undefined) return undefined;
    const value = oldReadValue(text, end, true);
    if (value === undefined || text[value.start] === '-') return undefined;
    return oldPushNamedValue(out, text, name, value) ? value.next : undefined;
  });
  return out;
}

/** The `.npmrc` half of the credential-file rule over the old reader and tests (its `.netrc` half moves on). */
function oldNpmrc(text: string): Candidate[] {
  const out: Candidate[] = [];
  const npmrc = /:(_authToken|_auth|_password)[ \t]*=[ \t]*/g;
  for (let match = npmrc.exec(text); match !== null; match = npmrc.exec(text)) {
    const value = oldReadValue(text, npmrc.lastIndex, true);
    if (value === undefined) continue;
    const name = match[1] ?? '';
    if (oldPushNamedValue(out, text, name === '_auth' ? 'npm_auth' : name, value))
      npmrc.lastIndex = value.next;
  }
  return out;
}

/** The mask finder as it was, before it was split to read the masks of part of a text. */
function oldMaskSpans(text: string): number[] {
  const spans: number[] = [];
  const push = (start: number, end: number) => {
    if (spans.length > 0 && (spans[spans.length - 1] as number) >= start)
      spans[spans.length - 1] = Math.max(spans[spans.length - 1] as number, end);
    else spans.push(start, end);
  };
  const printable = (code: number) => code >= 0x21 && code <= 0x7e;
  let label = text.indexOf('«redacted');
  let ellipsis = text.indexOf('…');
  while (label !== -1 || ellipsis !== -1) {
    if (label !== -1 && (ellipsis === -1 || label < ellipsis)) {
      const close = text.indexOf('»', label);
      const end = close === -1 ? label + 9 : close + 1;
      push(label, end);
      label = text.indexOf('«redacted', end);
      continue;
    }
    let head = ellipsis;
    while (head > 0 && ellipsis - head < 6 && printable(text.charCodeAt(head - 1))) head--;
    let tail = ellipsis + 1;
    while (tail < text.length && tail - ellipsis - 1 < 4 && printable(text.charCodeAt(tail))) tail++;
    if (ellipsis - head === 6 && tail - ellipsis - 1 === 4) push(head, tail);
    ellipsis = text.indexOf('…', ellipsis + 1);
  }
  return spans;
}

/** What a candidate list says, without the kind (the oracles above label every finding alike). */
const spans = (candidates: readonly Candidate[]) =>
  candidates.map(({ start, end, style }) => ({ start, end, style }));

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
  '«redacted',
  '»',
  'abcdef…wxyz',
  'ab…wxyz',
  '\ud835\udc00',
  '…',
  '_here',
];

const NAMES: readonly string[] = ['password', 'api_key', 'token', 'self.api_key', 'DB_PASSWORD'];

describe('values glued inside one token are read and judged once', () => {
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

  it('judges every value of a token as the old tests did', () => {
    fc.assert(
      fc.property(textOf(PIECES), fc.constantFrom(...NAMES), (text, name) => {
        const nameClass = classifySecretName(name) as SecretNameClass;
        for (let pos = 0; pos <= text.length; pos++) {
          const value = readValue(text, pos, true);
          if (value === undefined) continue;
          const old = oldIsPlausibleSecret(text.slice(value.start, value.end), name, nameClass, value.quoted);
          expect(isPlausibleValue(text, value, name, nameClass)).toBe(old);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('judges any unquoted span as the old tests did, line terminators and all', () => {
    fc.assert(
      fc.property(textOf(PIECES, 12), fc.nat(), fc.nat(), fc.constantFrom(...NAMES), (text, a, b, name) => {
        const nameClass = classifySecretName(name) as SecretNameClass;
        const end = b % (text.length + 1);
        // From the end backwards, as rules never do, and then forwards, as glued values are.
        for (const start of [a % (end + 1), ...Array(end + 1).keys()]) {
          const value = { start, end, quoted: false, next: end };
          const old = oldIsPlausibleSecret(text.slice(start, end), name, nameClass, false);
          expect(isPlausibleValue(text, value, name, nameClass)).toBe(old);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps the string tests as they were', () => {
    fc.assert(
      fc.property(textOf(PIECES, 12), fc.constantFrom(...NAMES), fc.boolean(), (value, name, quoted) => {
        const nameClass = classifySecretName(name) as SecretNameClass;
        expect(isReferenceOrPlaceholder(value)).toBe(oldIsReferenceOrPlaceholder(value));
        expect(looksLikeCredential(value)).toBe(oldLooksLikeCredential(value));
        expect(isPlausibleSecret(value, name, nameClass, quoted)).toBe(
          oldIsPlausibleSecret(value, name, nameClass, quoted),
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('finds the masks the old mask finder found', () => {
    fc.assert(
      fc.property(textOf(PIECES, 20), (text) => {
        expect(maskSpans(text)).toEqual(oldMaskSpans(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('masks the flags and npm tokens the old rules masked', () => {
    fc.assert(
      fc.property(textOf(PIECES, 40), (text) => {
        const flags: Candidate[] = [];
        secretFlagRule.find(text, flags);
        expect(spans(flags)).toEqual(spans(oldLongFlags(text)));
        const files: Candidate[] = [];
        credentialFileRule.find(text, files);
        const npm = files.filter((candidate) => candidate.kind === 'npm-token');
        expect(spans(npm)).toEqual(spans(oldNpmrc(text)));
      }),
      { numRuns: 5000 },
    );
  });

  // Each input below kept the old reader busy for minutes; it now takes a fraction of a second.
  const redactor = createRedactor({});

  it('reads a token of glued `--password=$` once', () => {
    const glued = '--password=$'.repeat(60_000);
    expect(redactor.text(glued).text).toBe(glued);
    expect(redactor.text(`${glued}--password=Xy7$abc9!`).text).toBe(`${glued}--password=${REDACTED}`);
  });

  it('reads a token of glued `:_authToken=$` once', () => {
    const glued = ':_authToken=$'.repeat(60_000);
    expect(redactor.text(glued).text).toBe(glued);
  });

  it('looks for masks once in a token of glued masked flags', () => {
    const masked = `--password=${REDACTED},`.repeat(40_000);
    expect(redactor.text(masked).text).toBe(masked);
  });

  it('finds the closing quotes of values behind ever more backslashes in one pass', () => {
    let text = '';
    for (let escapes = 2; text.length < 4_000_000; escapes++) text += `PASSWORD=${'\\'.repeat(escapes)}"x `;
    expect(redactor.text(text).text).toBe(text);
  });
});
