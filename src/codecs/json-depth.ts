import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-chars.js';

/**
 * Deepest nesting condense reads. Transcripts nest a few dozen levels at most (tool arguments inside messages
 * inside envelopes); much deeper JSON would overflow the stack of the recursive code that walks values (encoding,
 * hashing, redaction, `JSON.stringify` itself), so such input is refused — or, in the proxy, forwarded untouched.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * True when JSON text nests objects and arrays deeper than `limit`. One pass over the characters, no parsing and
 * no recursion, so it is safe on any input (it does not validate the text).
 */
export function exceedsJsonDepth(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  return false;
}
