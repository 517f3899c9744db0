/**
 * JSON text held in a string (a tool result that is a JSON document, an API response) writes its line breaks
 * and tabs as `\n`, `\r`, `\t`: the letter after the backslash glues what follows to a word, so a secret at
 * the start of such a line (`"ok\nDB_PASSWORD=…"`, `"key:\nsk-…"`) is not behind a boundary, and no line
 * starts there. The escape view puts the real control character in place of the letter, keeping every offset:
 * rules see the lines the JSON stands for, and their spans apply to the text unchanged.
 */
const BREAK_ESCAPE = /\\[nrt]/g;

/** True when `text` escapes a line break or a tab, at any depth of escaping. */
export function hasBreakEscapes(text: string): boolean {
  const backslash = text.indexOf('\\');
  if (backslash === -1) return false;
  BREAK_ESCAPE.lastIndex = backslash;
  return BREAK_ESCAPE.test(text);
}

/** `text` with the letter of each escaped line break or tab replaced by the control character itself. */
export function breakEscapeView(text: string): string {
  // Three native replaces: a callback per escape costs more on JSON text full of them.
  return text.replace(/\\n/g, '\\\n').replace(/\\r/g, '\\\r').replace(/\\t/g, '\\\t');
}
