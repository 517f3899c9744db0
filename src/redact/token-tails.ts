import { isLineTerminator, isSpace } from '../model/characters.js';
import { isMasked } from './mask.js';
import { type MaskedTail, maskedFrom, maskedTail } from './masked-tails.js';

/**
 * Unquoted values read to the end of their token, remembered per token. A rule that rejects a value resumes
 * right after its name, so names glued inside the value (`--password=$--password=$…`, `:_authToken=$:_auth…`)
 * each read a value that ends where the first one did: reading the rest of the token again, and scanning it
 * again to judge the value, made a long token quadratic (160 KB: 20 s). The end of the token and what its
 * tail holds are found once, from the first (longest) value, and serve every value inside it.
 */

/** Characters that end an unquoted value: whitespace, quotes and shell operators. */
export function endsUnquoted(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0x22 || // "
    code === 0x27 || // '
    code === 0x60 || // `
    code === 0x3b || // ;
    code === 0x26 || // &
    code === 0x7c || // |
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x2028 ||
    code === 0x2029
  );
}

/** Trailing punctuation that belongs to the sentence or the surrounding syntax, not to the value. */
function isTrailingPunctuation(code: number): boolean {
  return (
    code === 0x2c || code === 0x2e || code === 0x29 || code === 0x7d || code === 0x5d || code === 0x3a // , . ) } ] :
  );
}

/** How many backslashes start at `pos`. */
export function backslashRun(text: string, pos: number): number {
  let end = pos;
  while (text.charCodeAt(end) === 0x5c) end++;
  return end - pos;
}

interface Token {
  readonly text: string;
  /** Where the token was first read from; it holds no stop from there to `next`. */
  readonly from: number;
  /** Where the token ends: whitespace, a quote, a shell operator, or a backslash run before a quote or blank. */
  readonly next: number;
  /** Where its trailing punctuation starts (not before `from`). */
  readonly end: number;
}

let lastToken: Token = { text: '', from: 0, next: 0, end: 0 };

/**
 * The unquoted value that starts at `pos`: where it ends without its trailing punctuation (`end`, `pos` when
 * nothing is left) and where its token ends (`next`).
 */
export function unquotedToken(text: string, pos: number): { end: number; next: number } {
  let token = lastToken;
  if (token.text !== text || pos < token.from || pos > token.next) {
    let next = pos;
    while (next < text.length && !endsUnquoted(text.charCodeAt(next))) {
      if (text.charCodeAt(next) === 0x5c) {
        // A backslash run before a quote escapes the quote that closes the surrounding string; before a line
        // break it continues a shell line (or, in the escape view, it was a JSON `\n`).
        const run = backslashRun(text, next);
        const after = text.charCodeAt(next + run);
        if (after === 0x22 || after <= 0x20) break;
        next += run;
      } else next++;
    }
    let end = next;
    while (end > pos && isTrailingPunctuation(text.charCodeAt(end - 1))) end--;
    token = { text, from: pos, next, end };
    lastToken = token;
  }
  return { end: Math.max(pos, token.end), next: token.next };
}

/** What the characters of a value's tail hold, from `floor` to `end`. */
interface Tail {
  readonly text: string;
  readonly end: number;
  readonly floor: number;
  /** Where the trailing white space starts (not before `floor`). */
  readonly spaceFrom: number;
  /** Where a trailing run of `,;)` before that starts. */
  readonly codeTrailFrom: number;
  /** The last index before `spaceFrom` of each kind of character (-1: none from `floor`). */
  readonly lastMaskChar: number;
  readonly lastParen: number;
  readonly lastSpace: number;
  readonly lastDigit: number;
  /** The last capital letter whose previous character (from `floor`) is not a line terminator. */
  readonly lastInnerCapital: number;
  /** The masks of the last value of this tail found masked. */
  masked?: MaskedTail;
}

let lastTail: Tail | undefined;

function tailOf(text: string, start: number, end: number): Tail {
  if (lastTail !== undefined && lastTail.text === text && lastTail.end === end && lastTail.floor <= start)
    return lastTail;
  let spaceFrom = end;
  while (spaceFrom > start && isSpace(text.charCodeAt(spaceFrom - 1))) spaceFrom--;
  let codeTrailFrom = spaceFrom;
  while (codeTrailFrom > start && ',;)'.includes(text[codeTrailFrom - 1] as string)) codeTrailFrom--;
  let lastMaskChar = -1;
  let lastParen = -1;
  let lastSpace = -1;
  let lastDigit = -1;
  let lastInnerCapital = -1;
  for (let index = spaceFrom - 1; index >= start; index--) {
    const code = text.charCodeAt(index);
    if (code === 0xab || code === 0x2026) lastMaskChar = Math.max(lastMaskChar, index);
    if (code === 0x28) lastParen = Math.max(lastParen, index);
    if (code >= 0x30 && code <= 0x39) lastDigit = Math.max(lastDigit, index);
    if (isSpace(code)) lastSpace = Math.max(lastSpace, index);
    if (code >= 0x41 && code <= 0x5a && index > start && !isLineTerminator(text.charCodeAt(index - 1)))
      lastInnerCapital = Math.max(lastInnerCapital, index);
  }
  lastTail = {
    text,
    end,
    floor: start,
    spaceFrom,
    codeTrailFrom,
    lastMaskChar,
    lastParen,
    lastSpace,
    lastDigit,
    lastInnerCapital,
  };
  return lastTail;
}

/**
 * Whole-value questions of the plausibility tests (`values.ts`): each a scan of the value, or an answer from
 * the tail of its token.
 */
export interface ValueScans {
  /** {@link isMasked}: nothing but masks that count. */
  isMasked(): boolean;
  hasParen(): boolean;
  hasSpace(): boolean;
  hasDigit(): boolean;
  /** `/.[A-Z]/`: a capital letter after a character that is not a line terminator. */
  hasInnerCapital(): boolean;
  /** The length of the value without a trailing run of `,;)`. */
  withoutCodeTrail(): number;
}

/**
 * The value `text[start, end)` without its surrounding white space (as `trim` cuts it), and the answers to
 * its whole-value questions, from the tail of the token it ends (shared by the values glued inside it).
 */
export function trimmedTail(
  text: string,
  start: number,
  end: number,
): { start: number; end: number; scans: ValueScans } {
  const tail = tailOf(text, start, end);
  const to = Math.max(start, tail.spaceFrom);
  let from = start;
  while (from < to && isSpace(text.charCodeAt(from))) from++;
  return {
    start: from,
    end: to,
    scans: {
      isMasked: () => {
        // Without a `«` or `…` nothing is masked.
        if (tail.lastMaskChar < from) return false;
        const known = tail.masked === undefined ? undefined : maskedFrom(text, tail.masked, from);
        if (known !== undefined) return known;
        const masked = isMasked(text.slice(from, to));
        if (masked) tail.masked = maskedTail(text, from, to);
        return masked;
      },
      hasParen: () => tail.lastParen >= from,
      hasSpace: () => tail.lastSpace >= from,
      hasDigit: () => tail.lastDigit >= from,
      hasInnerCapital: () => tail.lastInnerCapital > from,
      withoutCodeTrail: () => Math.max(from, tail.codeTrailFrom) - from,
    },
  };
}
