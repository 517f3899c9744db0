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
// `:` or `=` (`Enter password: X`) and keys glued to `=` (`pasted api_key=X`).
const NAME = String.raw`(?<![\w.-])((?:[A-Za-z][\w-]{0,30}[ \t]+)?[A-Za-z][\w-]{0,40})`;
const PROSE_IS = new RegExp(String.raw`${NAME}[ \t]+(?:is|was)(?:[ \t]*:)?[ \t]+`, 'g');
const INLINE = new RegExp(String.raw`${NAME}([ \t]*[:=](?![=:/>~])[ \t]*)`, 'g');

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
  if (text.includes(' is ') || text.includes(' was '))
    forEachMatch(PROSE_IS, text, windows, (match, _start, end) =>
      pushProseValue(out, text, match[1] ?? '', end, true),
    );
  forEachMatch(INLINE, text, windows, (match, start, end) => {
    const name = match[1] ?? '';
    const nameClass = classifySecretName(name);
    // Query parameters (`?token=`, `&password=`) are the query rule's.
    if (nameClass === undefined || /[?&#]/.test(text[start - 1] ?? '')) return undefined;
    if (nameClass === 'password') return pushProseValue(out, text, name, end, false);
    // Keys only when glued to `=` (`api_key = value` in code is an expression more often than a secret), and
    // their value ends where a shell word does.
    if (match[2] !== '=') return undefined;
    const value = readValue(text, end, true);
    if (value === undefined) return undefined;
    if (!value.quoted && plausibleInProse(text.slice(value.start, value.end), nameClass))
      pushNamedValue(out, text, name, value, 'secret-assignment');
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
