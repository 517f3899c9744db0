import { deepQuoteClose } from './deep-quotes.js';
import { isMasked } from './mask.js';
import { nameWords, type SecretNameClass } from './names.js';
import { backslashRun, trimmedTail, unquotedToken, type ValueScans } from './token-tails.js';

/** Where a value sits in the text, and where scanning may resume. */
export interface ValueSpan {
  readonly start: number;
  readonly end: number;
  readonly quoted: boolean;
  /** First index after the value and its closing quote. */
  readonly next: number;
}

/**
 * Reads the value that starts at `pos`: a quoted string on one line (`"…"`, `'…'`, `` `…` ``, or `\"…\"` and
 * `\\\"…\\\"` inside JSON escaped once or more), or when `unquoted` is allowed a bare token up to whitespace, a
 * quote (escaped or not) or a shell operator (trailing sentence punctuation excluded). Linear in the length
 * read; never looks past the line.
 */
export function readValue(text: string, pos: number, unquoted: boolean): ValueSpan | undefined {
  const first = text.charCodeAt(pos);
  if (first === 0x22 || first === 0x27 || first === 0x60) return readQuoted(text, pos, first);
  if (first === 0x5c) {
    const escapes = backslashRun(text, pos);
    if (text.charCodeAt(pos + escapes) === 0x22)
      return escapes === 1
        ? readEscapedQuoted(text, pos + 2)
        : readDeepQuoted(text, pos + escapes + 1, escapes);
  }
  if (!unquoted) return undefined;
  const token = unquotedToken(text, pos);
  return token.end > pos ? { start: pos, end: token.end, quoted: false, next: token.next } : undefined;
}

/**
 * A value inside JSON nested more than once in JSON strings: delimited by a quote behind exactly `escapes`
 * backslashes; quotes of deeper strings have more.
 */
function readDeepQuoted(text: string, start: number, escapes: number): ValueSpan | undefined {
  const close = deepQuoteClose(text, start, escapes);
  return close === undefined ? undefined : { start, end: close - escapes, quoted: true, next: close + 1 };
}

function readQuoted(text: string, pos: number, quote: number): ValueSpan | undefined {
  for (let index = pos + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === quote) return { start: pos + 1, end: index, quoted: true, next: index + 1 };
    if (code === 0x0a || code === 0x0d) return undefined;
    if (code === 0x5c) index++;
  }
  return undefined;
}

/** A value inside JSON that is itself inside a JSON string: delimited by `\"`, inner quotes are `\\\"`. */
function readEscapedQuoted(text: string, start: number): ValueSpan | undefined {
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

const NOT_VALUES = new Set([
  'true',
  'false',
  'null',
  'none',
  'nil',
  'undefined',
  'yes',
  'no',
  'on',
  'off',
  'nan',
  'redacted',
  'required',
  'optional',
  'hidden',
  'secret',
  'password',
]);

const TYPE_NAMES = new Set(
  'str string int integer number bool boolean bytes any object secretstr char text float double unknown'.split(
    ' ',
  ),
);
// Lower case never shortens a string: a longer value is none of these, and is not lowered in vain.
const LONGEST_NOT_VALUE = Math.max(...[...NOT_VALUES].map((value) => value.length));
const LONGEST_TYPE_NAME = Math.max(...[...TYPE_NAMES].map((value) => value.length));

const REFERENCE =
  /^(?:os\.environ|os\.getenv|process\.env|env\(|getenv|ENV\[|System\.getenv|Deno\.env|import\.meta\.env|secrets\.|vault:|ssm:|arn:aws:secretsmanager|op:\/\/|ref\+|config\.|settings\.)/i;
const PLACEHOLDER_ONLY = /^[*xX.•…#_-]+$/;
/**
 * A format directive (`%s`, `%(token)s`, `%-8d`): the value is filled in later. The width starts at a nonzero
 * digit because `0` is also a flag: `[-+ 0#]*\d*` tried every split of a run of zeros, quadratic in a value as
 * long as a line (100 KB: 7 s).
 */
export const PRINTF = /^%(?:\([\w.-]{1,40}\))?[-+ 0#]*(?:[1-9]\d*)?(?:\.\d+)?[a-zA-Z]$/;
const IDENTIFIER = /^[A-Za-z_]\w*$/;
// A path: `/`, `~/`, `./` or `../`, then segments of `[\w.@+-]` joined by single slashes, maybe one at the end.
// The segments are one character class and `//` is refused apart: `(?:\/[\w.@+-]+)*` pushed V8's backtracking
// stack for every segment and threw RangeError on a value of megabytes (`/x` x 6 M).
const PATH_CHARS = /^(?:~|\.{1,2})?\/[\w.@+-][\w.@+/-]*$/;
const IDENTIFIER_START = /[A-Za-z_$]/;
const IDENTIFIER_CHAR = /[\w$]/;
const FILE_EXTENSION =
  /\.(?:json|pem|key|txt|p12|pfx|crt|cer|der|jks|keystore|env|ya?ml|toml|ini|conf|cfg)$/i;

/**
 * True when a value under a secret-looking name is a real value rather than a reference (`$TOKEN`,
 * `process.env.X`), a placeholder (`<token>`, `your_api_key`, `***`), a literal (`true`, `null`), a type
 * annotation (`password: str`), a path to a key file, or — for unquoted values in code — an expression.
 */
export function isPlausibleSecret(
  value: string,
  name: string,
  nameClass: SecretNameClass,
  quoted: boolean,
): boolean {
  const trimmed = value.trim();
  return isPlausible(trimmed, name, nameClass, quoted, scansOf(trimmed));
}

/**
 * {@link isPlausibleSecret} of the value `span` of `text`. An unquoted value is judged from what the tail of
 * its token holds: values glued inside it share that tail, and scanning each to its end was quadratic.
 */
export function isPlausibleValue(
  text: string,
  span: ValueSpan,
  name: string,
  nameClass: SecretNameClass,
): boolean {
  if (span.quoted) return isPlausibleSecret(text.slice(span.start, span.end), name, nameClass, true);
  const trimmed = trimmedTail(text, span.start, span.end);
  return isPlausible(text.slice(trimmed.start, trimmed.end), name, nameClass, false, trimmed.scans);
}

function isPlausible(
  trimmed: string,
  name: string,
  nameClass: SecretNameClass,
  quoted: boolean,
  scans: ValueScans,
): boolean {
  if (trimmed.length === 0 || isReferenceOrPlaceholder(trimmed)) return false;
  if (!quoted && looksLikeCode(trimmed, name, scans)) return false;
  if (nameClass === 'weak' && !isCredentialShaped(trimmed, scans)) return false;
  // Last, as it reads the whole value: only a value that would be masked is looked through for masks (none
  // without a `«` or `…`).
  return !scans.isMasked();
}

/** The whole-value questions answered by scans of `value`. */
function scansOf(value: string): ValueScans {
  return {
    isMasked: () => (value.includes('«') || value.includes('…')) && isMasked(value),
    hasParen: () => value.includes('('),
    hasSpace: () => /\s/.test(value),
    hasDigit: () => /[0-9]/.test(value),
    hasInnerCapital: () => /.[A-Z]/.test(value),
    withoutCodeTrail: () => withoutTrailing(value, ',;)'),
  };
}

/** True for references (`$X`, `process.env.X`), templates (`{x}`, `<x>`), literals and placeholders (`***`). */
export function isReferenceOrPlaceholder(value: string): boolean {
  // Every test below reads a bounded head or tail of the value: a value glued before a longer one (`--a=$x`
  // in `--a=$x--b=…`) is tested again from each name inside it.
  if (value.length <= LONGEST_NOT_VALUE && NOT_VALUES.has(value.toLowerCase())) return true;
  const first = value[0];
  const last = value[value.length - 1];
  if (first === '$' || first === '!') return true;
  if (PRINTF.test(value)) return true;
  if (first === '%' && last === '%') return true;
  if (first === '{' && last === '}') return true;
  if (first === '<' && last === '>') return true;
  if (first === '[' && last === ']') return true;
  if (value.startsWith('{{') || value.startsWith('{%')) return true;
  if (PLACEHOLDER_ONLY.test(value)) return true;
  if (/^your[_-]/i.test(value) || /[_-]here$/i.test(value.slice(-5))) return true;
  if (/^(?:your|my)[_-]?(?:password|passwd|pass|api[_-]?key|key|token|secret|user(?:name)?)$/i.test(value))
    return true;
  if (REFERENCE.test(value)) return true;
  return isPath(value);
}

/** True when `value` is an identifier path, `a.b`, `a->b`, `A::b` or `a?.b` (two or more names). */
export function isDotted(value: string): boolean {
  // A scan, not `^name(?:(?:\.|->|::|\?\.)name)+$`, whose loop overflowed V8's regex stack on megabytes.
  if (!IDENTIFIER_START.test(value[0] ?? '')) return false;
  let names = 0;
  let index = 0;
  for (;;) {
    index++;
    while (index < value.length && IDENTIFIER_CHAR.test(value[index] as string)) index++;
    names++;
    if (index === value.length) return names >= 2;
    const rest =
      value.startsWith('->', index) || value.startsWith('::', index) || value.startsWith('?.', index);
    index += rest ? 2 : value[index] === '.' ? 1 : 0;
    if (!IDENTIFIER_START.test(value[index] ?? '')) return false;
  }
}

/** True when `value` reads as a file path: see `PATH_CHARS`. */
export function isPathShaped(value: string): boolean {
  return PATH_CHARS.test(value) && !value.includes('//');
}

function isPath(value: string): boolean {
  if (!isPathShaped(value)) return false;
  return /^[~.]/.test(value) || FILE_EXTENSION.test(value) || value.split('/').length > 3;
}

/**
 * Where `value` ends once a trailing run of `chars` is cut. A loop from the end: `/[,;)]+$/` restarted at each
 * character of a run that something else follows, quadratic in the run (100 KB of `)`: 6.6 s).
 */
export function withoutTrailing(value: string, chars: string): number {
  let end = value.length;
  while (end > 0 && chars.includes(value[end - 1] as string)) end--;
  return end;
}

function looksLikeCode(value: string, name: string, scans: ValueScans): boolean {
  if (scans.hasParen()) return true;
  if (isDotted(value)) return true;
  const bareLength = scans.withoutCodeTrail();
  if (bareLength <= LONGEST_TYPE_NAME && TYPE_NAMES.has(value.slice(0, bareLength).toLowerCase()))
    return true;
  // An identifier starts with a letter: a value glued before others is not sliced again for nothing.
  if (bareLength === 0 || !/[A-Za-z_]/.test(value[0] as string)) return false;
  const bare = value.slice(0, bareLength);
  if (IDENTIFIER.test(bare)) {
    const lower = bare.toLowerCase();
    if (lower === name.toLowerCase() || nameWords(name).join('_') === lower) return true;
    if (nameWords(bare).join('_') === nameWords(name).join('_')) return true;
    // `f.api_key = api_key`, `self.api_key = api` (a snippet cut short): a member set from a variable.
    const member = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    if (name.includes('.') && lower.length >= 2 && (member.startsWith(lower) || member.endsWith(lower)))
      return true;
  }
  return false;
}

/**
 * Shaped like a credential: at least 8 characters, one word, with a digit or an inner capital. Generated
 * tokens have them; words, hyphenated names (`vue-todo-list`) and identifiers in lower case do not.
 */
export function looksLikeCredential(value: string): boolean {
  return isCredentialShaped(value, scansOf(value));
}

function isCredentialShaped(value: string, scans: ValueScans): boolean {
  if (value.length < 8 || scans.hasSpace()) return false;
  return scans.hasDigit() || scans.hasInnerCapital();
}

/**
 * A password given in prose rather than in syntax (`my password is X`): a word would be a sentence (`is
 * required`), so it must be one token of six or more characters that mixes letters with digits or symbols, or
 * with an inner capital, and is not a path or a reference.
 */
export function looksLikePassword(value: string): boolean {
  if (value.length < 6 || /\s/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (isReferenceOrPlaceholder(value) || /^[a-z][\w+.-]*:\/\//i.test(value)) return false;
  return /[0-9!@#$%^&*+=?~]/.test(value) || /[a-z][A-Z]/.test(value);
}
