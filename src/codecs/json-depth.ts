import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-chars.js';

/**
 * Deepest nesting condense reads. Transcripts nest a few dozen levels at most (tool arguments inside messages
 * inside envelopes); much deeper JSON would overflow the stack of the recursive code that walks values (encoding,
 * hashing, redaction, `JSON.stringify` itself), so such input is refused — or, in the proxy, forwarded untouched.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * True when JSON text nests objects and arrays deeper than `limit`. One pass over the characters, no parsing and
 * no recursion, so it is safe on any input (it does not validate the text). Strings, most of a transcript's
 * text, are skipped by searching for their closing quote.
 */
export function exceedsJsonDepth(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = closingQuote(text, index + 1);
      if (index === -1) return false;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * Index of the quote that closes a string whose body starts at `from`, or -1: the first quote after an even
 * run of backslashes (each backslash escapes the character after it).
 */
export function closingQuote(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let before = quote;
    while (before > from && text.charCodeAt(before - 1) === BACKSLASH) before--;
    if ((quote - before) % 2 === 0) return quote;
  }
  return -1;
}

/** Length below which a text cannot nest past {@link MAX_JSON_DEPTH}: each level takes an opening and a closing character. */
const SHALLOW_LENGTH = 2 * MAX_JSON_DEPTH + 2;

/**
 * `JSON.parse` for JSON held in a string of a transcript (tool arguments, JSON tool output, dataset cells): the
 * nesting check of a JSONL line does not see inside strings, so text nesting deeper than {@link MAX_JSON_DEPTH} is
 * refused here, with a `SyntaxError` as for text that is not JSON, and callers keep it as text as they do then.
 */
export function parseNestedJson(text: string): unknown {
  if (text.length >= SHALLOW_LENGTH && exceedsJsonDepth(text)) {
    throw new SyntaxError(`JSON nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return JSON.parse(text);
}
