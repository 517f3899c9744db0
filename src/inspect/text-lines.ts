/**
 * Lines of a text read one at a time, split where `split(/\r?\n|\r/)` would split, so a question about the first
 * lines of a megabyte tool output reads only those lines and builds no array.
 */

/** The first non-blank line of a text, trimmed, or `''`. Reads only up to that line (tool outputs run to megabytes). */
export function firstNonBlankLine(text: string): string {
  let start = 0;
  for (;;) {
    const end = lineEnd(text, start);
    const line = text.slice(start, end).trim();
    if (line !== '') return line;
    if (end === text.length) return '';
    start = nextLineStart(text, end);
  }
}

/** How many lines of a text are not blank: `nonBlankLines(text).length` without building the lines. */
export function countNonBlankLines(text: string): number {
  // It reads the whole text anyway, so its breaks are found with `indexOf`, which is many times faster than
  // reading every character in a loop: the next `\n` and the next `\r`, each looked for again once passed.
  let newline = text.indexOf('\n');
  let carriageReturn = text.indexOf('\r');
  let count = 0;
  let start = 0;
  for (;;) {
    if (newline !== -1 && newline < start) newline = text.indexOf('\n', start);
    if (carriageReturn !== -1 && carriageReturn < start) carriageReturn = text.indexOf('\r', start);
    const end = Math.min(
      newline === -1 ? text.length : newline,
      carriageReturn === -1 ? text.length : carriageReturn,
    );
    if (!isBlank(text, start, end)) count++;
    if (end === text.length) return count;
    start = nextLineStart(text, end);
  }
}

/** Where the line starting at `start` ends: the next `\n` or `\r`, or the end of the text (as `split(/\r?\n|\r/)`). */
function lineEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === 10 || code === 13) return end;
    end++;
  }
  return end;
}

/** Start of the line after the break at `end` (a `\r\n` pair is one break). */
function nextLineStart(text: string, end: number): number {
  return text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
}

/** True when `text.slice(start, end).trim()` would be empty, without slicing. */
function isBlank(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === 32 || (code >= 9 && code <= 13)) continue;
    // Other ASCII is never blank; beyond it `trim`, which knows Unicode's spaces, decides.
    if (code < 128 || text.slice(index, index + 1).trim() !== '') return false;
  }
  return true;
}
