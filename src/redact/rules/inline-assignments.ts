import type { CandidateSink } from '../candidate.js';
import { classifySecretName, type SecretNameClass } from '../names.js';
import type { RedactRule, RuleScope } from '../rule.js';
import { looksLikeCredential, looksLikePassword, readValue, type ValueSpan } from '../values.js';
import { forEachMatch } from '../windows.js';
import { pushNamedValue } from './named-value.js';

const MAX_WORD = 200;

// A flag whose value is itself `name=value`: `--from-literal=password=X`, `--set db.password=X`,
// `-var 'db_password=X'`, `--build-arg api_key=X`.
const FLAG_ASSIGNMENT =
  /(?<![\w-])--?[A-Za-z][\w-]{0,40}(?:=|[ \t]+)(?:\\*["'])?([A-Za-z_][\w.-]{0,99})=(?![=>~])/g;

// A string literal that is one assignment: `echo 'password: X'`, `print("token=abc123")`.
const QUOTED_ASSIGNMENT = /(["'`])[ \t]*([A-Za-z_][\w.-]{0,99})[ \t]*(?::|=)(?![=:/])[ \t]*/g;

// Prose: `my password is X`, `The password is "X"`, `the API key was X`; anywhere in a line, passwords after
// `:` or `=` (`Enter password: X`) and keys glued to `=` (`pasted api_key=X`). Found from the end of the name
// (a secret-name word, so the scan fails fast elsewhere); the name is read back from there. Its numbered
// suffix (`password_2`, `key1-2`) takes one digit per step: `(?:[_-]?[0-9]+)*` split a run of digits every
// possible way before failing, exponential in its length (24 digits: 0.13 s, each 2 more x4). Then
// `(?:[_-]?[0-9])*` pushed V8's backtracking stack for every digit and threw RangeError on a run of millions; it
// is the run of `[0-9_-]` with no two separators in a row and none last, which one character class and two
// look-arounds say with no group to repeat. Exported for the test that holds it to the old patterns.
export const NAMED =
  /(?:pass(?:word|wd|phrase)?|pwd|secrets?|credentials?|jwt|bearer|tokens?|keys?|auth|pat)(?![0-9_-]*[_-][_-])[0-9_-]*(?<![_-])(?![\w-])(?:([ \t]+(?:is|was)(?:[ \t]*:)?[ \t]+)|([ \t]*[:=](?![=:/>~])[ \t]*))/gi;

const isNameChar = (char: string | undefined): boolean => char !== undefined && /[\w-]/.test(char);
const isLetter = (char: string | undefined): boolean => char !== undefined && /[A-Za-z]/.test(char);

/**
 * The name that ends at `end`: one word of up to 41 characters starting with a letter, or two when another
 * word of up to 31 comes before it across blanks (`my password`, `The API key`); nothing when the name is glued
 * to a word or a member access (`self.password`). Returns the name and where it starts.
 */
function nameBefore(
  text: string,
  wordStart: number,
  end: number,
): { name: string; start: number } | undefined {
  let start = wordStart;
  while (start > 0 && isNameChar(text[start - 1])) start--;
  while (start < wordStart && !isLetter(text[start])) start++;
  if (end - start > 41 || !isLetter(text[start]) || /[\w.-]/.test(text[start - 1] ?? ' ')) return undefined;
  let gap = start;
  while (gap > 0 && (text[gap - 1] === ' ' || text[gap - 1] === '\t')) gap--;
  let first = gap;
  while (first > 0 && isNameChar(text[first - 1])) first--;
  if (
    gap < start &&
    first < gap &&
    gap - first <= 31 &&
    isLetter(text[first]) &&
    !/[\w.-]/.test(text[first - 1] ?? ' ')
  )
    return { name: text.slice(first, end), start: first };
  return { name: text.slice(start, end), start };
}

/** True when the quote `quote`, bare or behind backslashes, is at `pos`. */
function closesWith(text: string, pos: number, quote: string): boolean {
  let index = pos;
  while (text[index] === '\\') index++;
  return text[index] === quote;
}

function findFlagAssignments(text: string, out: CandidateSink, windows: readonly number[] | undefined): void {
  if (!text.includes('-')) return;
  forEachMatch(FLAG_ASSIGNMENT, text, windows, (match, _start, end) => {
    const value = readValue(text, end, true);
    if (value === undefined) return undefined;
    pushNamedValue(out, text, match[1] ?? '', value, 'secret-assignment');
    return value.next;
  });
}

function findQuotedAssignments(
  text: string,
  out: CandidateSink,
  windows: readonly number[] | undefined,
): void {
  forEachMatch(QUOTED_ASSIGNMENT, text, windows, (match, _start, end) => {
    const value = readValue(text, end, true);
    // The value must run to the quote that opened the string (escaped in JSON text): one word, nothing after it.
    if (value === undefined) return undefined;
    if (closesWith(text, value.next, match[1] ?? ''))
      pushNamedValue(out, text, match[2] ?? '', value, 'secret-assignment');
    return value.next;
  });
}

/**
 * A word of prose: up to a blank, a quote or a backslash (an escaped line break in JSON text), without the
 * punctuation that ends the sentence. Shell operators belong to it (`a9B7$#fG3&Z1`).
 */
function readWord(text: string, pos: number): ValueSpan | undefined {
  let end = pos;
  while (end < text.length && !/[\s"'`\\]/.test(text[end] as string)) end++;
  // Longer than any password: a blob, skipped whole.
  if (end - pos > MAX_WORD) return { start: pos, end: pos, quoted: false, next: end };
  const next = end;
  while (end > pos && /[.,;:)\]}]/.test(text[end - 1] as string)) end--;
  return end > pos ? { start: pos, end, quoted: false, next } : undefined;
}

/** Unquoted values in prose must look like a password or a key; words (`is required`) and code do not. */
function plausibleInProse(value: string, nameClass: SecretNameClass): boolean {
  if (nameClass === 'password') return looksLikePassword(value);
  return looksLikeCredential(value) && !/[()[\]{}<>]/.test(value);
}

/** Masks the value after a name in prose; a quoted one after `:` or `=` is left to the quoted-field rule. */
function pushProseValue(
  out: CandidateSink,
  text: string,
  name: string,
  end: number,
  quotedToo: boolean,
): number | undefined {
  const nameClass = classifySecretName(name);
  const value = readValue(text, end, false) ?? readWord(text, end);
  if (value === undefined || nameClass === undefined) return undefined;
  if (value.quoted ? quotedToo : plausibleInProse(text.slice(value.start, value.end), nameClass))
    pushNamedValue(out, text, name, value, 'secret-assignment');
  return value.next;
}

function findProse(text: string, out: CandidateSink, windows: readonly number[] | undefined): void {
  forEachMatch(NAMED, text, windows, (match, wordStart, end) => {
    const is = match[1];
    const operator = match[2] ?? '';
    const named = nameBefore(text, wordStart, end - (is ?? operator).length);
    if (named === undefined) return undefined;
    if (is !== undefined) return pushProseValue(out, text, named.name, end, true);
    const nameClass = classifySecretName(named.name);
    // Query parameters (`?token=`, `&password=`) are the query rule's.
    if (nameClass === undefined || /[?&#]/.test(text[named.start - 1] ?? '')) return undefined;
    if (nameClass === 'password') return pushProseValue(out, text, named.name, end, false);
    // Keys only when glued to `=` (`api_key = value` in code is an expression more often than a secret), and
    // their value ends where a shell word does.
    if (operator !== '=') return undefined;
    const value = readValue(text, end, true);
    if (value === undefined) return undefined;
    if (!value.quoted && plausibleInProse(text.slice(value.start, value.end), nameClass))
      pushNamedValue(out, text, named.name, value, 'secret-assignment');
    return value.next;
  });
}

function findInlineAssignments(text: string, out: CandidateSink, scope?: RuleScope): void {
  const windows = scope?.windows;
  findFlagAssignments(text, out, windows);
  findQuotedAssignments(text, out, windows);
  findProse(text, out, windows);
}

/**
 * Assignments in the middle of a line: flag values that are `name=value`, string literals that are one
 * assignment, and passwords given in prose.
 */
export const inlineAssignmentRule: RedactRule = {
  name: 'inline-assignment',
  windowed: true,
  noisy: true,
  find: findInlineAssignments,
};
