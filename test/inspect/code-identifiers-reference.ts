import { definitionNames, type IdentifierChanges } from '../../src/inspect/code-identifiers.js';

// The identifier scans as they were before issue 15's second round (a `matchAll` per pattern over the whole text,
// every token of the new text gathered before the first 40 were kept, every line split), kept as the oracle the
// faster ones must agree with exactly. `definitionNames` did not change.
const BINDING = /\b(?:const|let|var|val|static|final)\s+(?:mut\s+)?([A-Za-z_$][\w$]*)\s*[:=]/g;
const MODULE_ATTRIBUTE = /^[ \t]*(@[a-z_][a-z0-9_]*)\b/gm;
const SHELL_FUNCTION = /^[ \t]*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{/gm;
const EXPORTED_NAME =
  /^[ \t]*export\s+(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:declare\s+)?\w+\s+([A-Za-z_$][\w$]*)/gm;
// The same pattern as `IDENTIFIER` of src, a copy: `matchAll` starts from the `lastIndex` of the one it is given.
const IDENTIFIER =
  /@[a-z_][a-z0-9_]*|(?<=[\s([,{]):[a-z_][a-z0-9_]*[?!]?|\b[A-Z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9.]*?(?:(?![A-Za-z0-9_]|\.[A-Z])|(?=\.[A-Z][A-Za-z0-9]*_))|\b[a-z][a-z0-9]*_[a-z0-9][a-z0-9_]*?(?![a-z0-9]|_[a-z0-9])[?!]?|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z](?![A-Za-z0-9]*[A-Z][A-Z])[a-z0-9]+[A-Z][A-Za-z0-9]*[a-z0-9]\b/g;
const KEYWORDS = new Set([
  'def',
  'defp',
  'function',
  'return',
  'import',
  'export',
  'const',
  'class',
  'self',
  'this',
  'true',
  'false',
  'null',
  'nil',
  'none',
  'None',
  'undefined',
  ':ok',
  ':error',
  ':do',
  ':else',
]);
const MAX_ADDED = 40;
const MAX_LINES = 12;
// A line worth quoting says something: not a brace, a bare keyword, a comment or a blank.
const TRIVIAL_LINE = /^(?:[{}()[\];,]+|end|else|do|fi|done|\}\)?;?|\/\/.*|#.*|\*.*|\/\*.*|<\/?\w+>|"""?)$/;

function collect(pattern: RegExp, text: string, out: Set<string>): void {
  for (const match of text.matchAll(pattern)) addName(match[1] ?? match[0], out);
}

function addName(name: string, out: Set<string>): void {
  if (name.length >= 2 && !KEYWORDS.has(name)) out.add(name);
}

/** The names a piece of source text defines, in order of appearance. */
export function referenceDefinedNames(text: string): string[] {
  const out = new Set<string>();
  for (const name of definitionNames(text)) addName(name, out);
  collect(EXPORTED_NAME, text, out);
  collect(BINDING, text, out);
  collect(MODULE_ATTRIBUTE, text, out);
  collect(SHELL_FUNCTION, text, out);
  return [...out];
}

/** Identifier-shaped tokens of a text (see `IDENTIFIER`), in order of appearance, each once. */
export function referenceIdentifierTokens(text: string): string[] {
  const out = new Set<string>();
  collect(IDENTIFIER, text, out);
  return [...out];
}

/**
 * What an edit from `before` to `after` did to identifiers: names the new text defines, other identifiers it
 * introduces (at most 40), and definitions that disappeared. A whole-file write has an empty `before`.
 */
export function referenceIdentifierChanges(before: string, after: string): IdentifierChanges {
  const defined = referenceDefinedNames(after);
  const definedSet = new Set(defined);
  const old = new Set(referenceIdentifierTokens(before));
  const added = referenceIdentifierTokens(after)
    .filter((name) => !old.has(name) && !definedSet.has(name))
    .slice(0, MAX_ADDED);
  const still = new Set(defined);
  const removed = referenceDefinedNames(before).filter((name) => !still.has(name) && !after.includes(name));
  return { defined, added, removed, lines: addedLines(before, after) };
}

/** Distinct short lines of `after` that `before` does not have, trimmed, in order. */
function addedLines(before: string, after: string): string[] {
  const old = new Set(before.split('\n').map((line) => line.trim()));
  const out: string[] = [];
  for (const raw of after.split('\n')) {
    const line = raw.trim();
    if (line.length < 8 || line.length > 100 || old.has(line) || TRIVIAL_LINE.test(line)) continue;
    if (out.includes(line)) continue;
    out.push(line);
    if (out.length >= MAX_LINES) break;
  }
  return out;
}
