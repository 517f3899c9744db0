/**
 * JSON text helpers for ShareGPT values, whose tool calls and results are JSON written by Python's `json.dumps`
 * (`", "` and `": "` separators, non-ASCII unescaped). Argument and content values are cut out of the source
 * text verbatim, so the model keeps the exact JSON the trajectory holds.
 */

import { parseNestedJson } from '../json-depth.js';

/** Parses JSON text, returning `undefined` instead of throwing. */
export function tryParseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: parseNestedJson(text) };
  } catch {
    return undefined;
  }
}

/** JSON text in Python's `json.dumps(value, ensure_ascii=False)` layout. */
export function pythonJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item: unknown) => pythonJson(item)).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`).join(', ')}}`;
}

/**
 * The source text of each top-level value of a JSON object text, keyed by property name; `undefined` when the
 * text is not a JSON object. The text must be valid JSON (callers parse it first).
 */
export function topLevelSpans(text: string): Map<string, string> | undefined {
  let index = skipSpace(text, 0);
  if (text[index] !== '{') return undefined;
  const spans = new Map<string, string>();
  index = skipSpace(text, index + 1);
  if (text[index] === '}') return spans;
  while (index < text.length) {
    const keyEnd = scanString(text, index);
    const key = JSON.parse(text.slice(index, keyEnd)) as string;
    index = skipSpace(text, keyEnd);
    index = skipSpace(text, index + 1);
    const valueEnd = scanValue(text, index);
    spans.set(key, text.slice(index, valueEnd));
    index = skipSpace(text, valueEnd);
    if (text[index] !== ',') break;
    index = skipSpace(text, index + 1);
  }
  return spans;
}

function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && /\s/.test(text[index] as string)) index++;
  return index;
}

/** End (exclusive) of the string literal starting at `from`. */
function scanString(text: string, from: number): number {
  let index = from + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === '"') return index + 1;
    else index++;
  }
  return index;
}

/** End (exclusive) of the JSON value starting at `from`. */
function scanValue(text: string, from: number): number {
  const first = text[from];
  if (first === '"') return scanString(text, from);
  if (first !== '{' && first !== '[') {
    let index = from;
    while (index < text.length && !/[\s,}\]]/.test(text[index] as string)) index++;
    return index;
  }
  let depth = 0;
  let index = from;
  while (index < text.length) {
    const char = text[index];
    if (char === '"') {
      index = scanString(text, index);
      continue;
    }
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index + 1;
    }
    index++;
  }
  return index;
}

/**
 * The JSON text to embed for a value the model holds as text (tool arguments, tool output): the text itself when
 * it is trimmed JSON of an accepted kind, so decoding cuts out the very same text; otherwise a JSON string.
 */
export function embedJsonText(text: string, accept: (value: unknown) => boolean): string {
  if (text !== text.trim()) return JSON.stringify(text);
  const parsed = tryParseJson(text);
  return parsed !== undefined && accept(parsed.value) ? text : JSON.stringify(text);
}

/** The text a JSON value embedded by {@link embedJsonText} stands for: a string's content, else its source. */
export function embeddedText(source: string, value: unknown): string {
  return typeof value === 'string' ? value : source;
}
