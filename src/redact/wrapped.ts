import { isBase64Char } from './base64-chars.js';
import type { Candidate } from './candidate.js';

/** Characters of a key body: base64, base64url and the separators of vendor prefixes (`=` only as padding). */
function isKeyChar(code: number): boolean {
  return isBase64Char(code) || code === 0x5f || code === 0x2d; // base64url's `_` and `-`
}

/** Where the next line starts after a line break at `pos` (plain, or `\n` escaped in JSON text), or -1. */
function nextLineStart(text: string, pos: number): number {
  // In the escape view (`escapes.ts`) a JSON `\n` is a backslash and a line break.
  if (text[pos] === '\\' && (text[pos + 1] === '\n' || text[pos + 1] === '\r'))
    return nextLineStart(text, pos + 1);
  if (text[pos] === '\n') return pos + 1;
  if (text[pos] === '\r') return text[pos + 1] === '\n' ? pos + 2 : pos + 1;
  if (text[pos] === '\\' && text[pos + 1] === 'n') return pos + 2;
  if (text.startsWith('\\r\\n', pos)) return pos + 4;
  return -1;
}

/** What may follow the rest of a wrapped key: the end of the line or of the value. */
function endsContinuation(text: string, pos: number): boolean {
  if (pos >= text.length) return true;
  const char = text[pos] as string;
  return /[\s"'`\\,;)\]}]/.test(char);
}

/**
 * The second half of a key that a terminal or an editor wrapped onto the next line: a run of key characters
 * at the very start of that line, shaped like the rest of a random key (letters mixed with digits, or with
 * both cases), that ends the line or the value. A commit hash that starts a log line is not one.
 */
function continuation(text: string, start: number): number {
  let end = start;
  while (end < text.length && isKeyChar(text.charCodeAt(end))) end++;
  while (text[end] === '=') end++;
  if (end - start < 8 || !endsContinuation(text, end)) return -1;
  const run = text.slice(start, end);
  const digitsAndLetters = /[0-9]/.test(run) && /[A-Za-z]/.test(run);
  const mixedCase = /[a-z]/.test(run) && /[A-Z]/.test(run);
  if (!digitsAndLetters && !mixedCase) return -1;
  if (/^[0-9a-f]+$/.test(run) && text[end] === ' ') return -1;
  return end;
}

/**
 * Adds, for every long token a rule found that ends a line, the rest of it at the start of the next line:
 * masking only the first half of a wrapped key would leak the other.
 */
export function addWrappedContinuations(text: string, candidates: Candidate[], from = 0): void {
  const count = candidates.length;
  for (let index = from; index < count; index++) {
    const candidate = candidates[index] as Candidate;
    if (candidate.style !== 'ends' || candidate.end - candidate.start < 16) continue;
    const start = nextLineStart(text, candidate.end);
    if (start === -1) continue;
    const end = continuation(text, start);
    if (end !== -1) candidates.push({ ...candidate, start, end });
  }
}
