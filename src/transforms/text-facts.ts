/** A count with thousands separators (`12,345`), the same on every machine whatever its locale. */
export function formatCount(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Exactly `value.toLocaleString('en-US')`, without the ICU number formatter for safe integers: its first use
 * in a process costs about 25 ms, as much as a small compaction, and a one-shot command prints a few counts.
 */
export function formatNumber(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US');
  return formatCount(value);
}

/** `1 token`, `2167 tokens`: a count as written, with its unit (a plain `s`), for notes that scripts read too. */
export function countOf(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** `1 line`, `3 lines`, `2 matches`, `4 entries`: a count with its unit, singular when it is one. */
export function plural(count: number, unit: string): string {
  if (count === 1) return `1 ${unit}`;
  if (/[^aeiou]y$/.test(unit)) return `${formatCount(count)} ${unit.slice(0, -1)}ies`;
  return `${formatCount(count)} ${unit}${/(?:s|x|ch|sh)$/.test(unit) ? 'es' : 's'}`;
}

/** Lines of a text as a reader sees them: a trailing newline does not start a line, blank text has none. */
export function lineCount(text: string): number {
  if (text.trim() === '') return 0;
  let count = 1;
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) === 10) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

/**
 * The start of a text, at most `max` UTF-16 units, with `…` appended when something was cut. A surrogate pair
 * is never split, so the result is always well-formed text.
 */
export function truncateStart(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max));
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The non-blank lines of a text, trimmed, in order. */
export function nonBlankLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.trim();
    if (line !== '') out.push(line);
  }
  return out;
}

/** Whitespace runs (newlines included) collapsed to one space: a value shown inside a one-line digest. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
