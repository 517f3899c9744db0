import { findPaths } from '../../src/inspect/artifact-patterns.js';

/** What kind of thing a reference item is (for the per-kind columns of the evaluation). */
export type ReferenceKind = 'path' | 'command' | 'identifier' | 'task-id' | 'error';

/** One exact string a reference summary names, with the spellings it may occur under in a transcript. */
export interface ReferenceItem {
  readonly text: string;
  readonly kind: ReferenceKind;
  /** The item itself, then looser spellings (`name/2` → `name`, `name()` → `name`). */
  readonly variants: readonly string[];
}

const COMMAND_START =
  /^(?:git|gh|bd|npm|npx|yarn|pnpm|node|python3?|pip|uv|mix|cargo|go|make|ls|cat|grep|rg|find|sed|awk|cd|curl|docker|kubectl|pytest|bundle|rails|rake|just|deno|bun|tsc|vitest|jest|ruff|mypy|eslint|biome|iex|elixir|erl)\b/;
const ERROR_WORD = /\b(?:error|errors|exception|traceback|failed|failure|fatal|denied|not found|warning)\b/i;
const TASK_ID = /\b[a-z][a-z0-9]*-[a-z0-9]{2,}(?:\.\d+)+\b|\b[A-Z][A-Z0-9]+-\d+\b/g;
const DOTTED_MODULE = /\b[A-Z][A-Za-z0-9]+(?:\.[A-Z][A-Za-z0-9]+)+\b/g;
const SNAKE_IDENTIFIER = /(?<![\w/.-])@?[a-z][a-z0-9]*(?:_[a-z0-9]+)+[?!]?(?:\/\d+)?(?![\w/-])/g;
const CAMEL_IDENTIFIER = /(?<![\w/.-])[a-z]+(?:[A-Z][a-z0-9]+)+(?![\w/-])/g;
const BACKTICK = /`([^`\n]{3,200})`/g;
const TRIVIAL = new Set(['true', 'false', 'nil', 'null', 'none', 'undefined', 'ok', 'error', 'main']);

/**
 * The exact items a reference summary (Claude Code's own compaction summary) names: backticked spans, paths,
 * task ids (`spotter-dov.3`, `ABC-12`), dotted module names, snake_case and camelCase identifiers, and the text
 * after `error:` on a line. Backticked spans are classified as commands, paths, errors or identifiers.
 */
export function referenceItems(summary: string): ReferenceItem[] {
  const found = new Map<string, ReferenceKind>();
  const add = (raw: string, kind: ReferenceKind) => {
    const text = raw.trim().replace(/[.,;:]+$/, '');
    if (text.length < 3 || TRIVIAL.has(text.toLowerCase()) || /^\d+$/.test(text)) return;
    if (!found.has(text)) found.set(text, kind);
  };
  for (const match of summary.matchAll(BACKTICK)) {
    const span = match[1] as string;
    add(span, spanKind(span));
  }
  for (const path of findPaths(summary)) add(path, 'path');
  for (const match of summary.matchAll(TASK_ID)) add(match[0], 'task-id');
  for (const match of summary.matchAll(DOTTED_MODULE)) add(match[0], 'identifier');
  for (const match of summary.matchAll(SNAKE_IDENTIFIER)) add(match[0], 'identifier');
  for (const match of summary.matchAll(CAMEL_IDENTIFIER)) add(match[0], 'identifier');
  for (const line of summary.split('\n')) {
    const after = /\berror:\s*(.+)$/i.exec(line)?.[1];
    if (after !== undefined) add(after.replace(/[`*"]/g, '').trim(), 'error');
  }
  return [...found].map(([text, kind]) => ({ text, kind, variants: variantsOf(text) }));
}

function spanKind(span: string): ReferenceKind {
  if (COMMAND_START.test(span)) return 'command';
  if (ERROR_WORD.test(span) && /\s/.test(span)) return 'error';
  if (findPaths(span).includes(span)) return 'path';
  if (/^[a-z][a-z0-9]*-[a-z0-9]{2,}(?:\.\d+)+$/.test(span)) return 'task-id';
  return 'identifier';
}

function variantsOf(text: string): string[] {
  const out = [text];
  const push = (value: string) => {
    if (value.length >= 3 && !out.includes(value)) out.push(value);
  };
  push(text.replace(/\/\d+$/, ''));
  push(text.replace(/\(\)$/, ''));
  push(text.replace(/^["']|["']$/g, ''));
  return out;
}

/** The first spelling of an item that occurs in `text`, or undefined. */
export function occurrence(item: ReferenceItem, text: string): string | undefined {
  return item.variants.find((variant) => text.includes(variant));
}
