/** What an edit did to the identifiers of a file, as far as its text shows. */
export interface IdentifierChanges {
  /** Names defined in the new text (functions, classes, types, modules, constants, module attributes). */
  readonly defined: readonly string[];
  /** Other identifiers the new text has and the old text did not (calls, attributes, fields). */
  readonly added: readonly string[];
  /** Names defined in the old text and no longer in the new one. */
  readonly removed: readonly string[];
  /** Short lines the new text has and the old did not (imports, config, signatures), trimmed, at most 12. */
  readonly lines: readonly string[];
}

// Definitions in the languages agents edit most: JavaScript/TypeScript, Python, Ruby, Elixir, Go, Rust, Java,
// C#, Kotlin, Swift, PHP, shell functions, SQL objects. A keyword and its blank come before an optional
// parenthesized receiver (`func (s *Server) Serve`) and the name, which `definitionNames` reads by hand: as part
// of one regex, `\([^)]*\)` searched on to the next `)` again for each keyword followed by `(`. The keywords
// (`def`, `defp`, `defmacrop?`, `defmodule`, `defprotocol`, `defimpl`, `defstruct`, `defguardp?`, `defdelegate`,
// `function\*?`, `class`, `interface`, `type`, `enum`, `struct`, `trait`, `impl`, `fn`, `func`, `module`,
// `namespace`, `protocol`, `extension`, `record`, `object`, `fun`, `sub`, `proc`, `macro_rules!`, `create …`)
// are grouped by their first letters: the scan then reads a letter once per position instead of trying each
// keyword there. No two of them match at one position (each must be followed by a blank, and none goes on from
// another with a blank), so the grouping finds what the list found.
const DEFINITION_KEYWORD =
  /\b(?:c(?:lass|reate\s+(?:or\s+replace\s+)?(?:table|view|function|index|procedure))|def(?:p|macrop?|module|protocol|impl|struct|guardp?|delegate)?|e(?:num|xtension)|f(?:n|unc(?:tion\*?)?|un)|i(?:nterface|mpl)|m(?:odule|acro_rules!)|namespace|object|pro(?:tocol|c)|record|s(?:truct|ub)|t(?:ype|rait))\s+/g;
const DEFINED_NAME = /[A-Za-z_$][\w$.!?]*/y;
const BLANKS = /\s*/y;
const BINDING = /\b(?:const|let|var|val|static|final)\s+(?:mut\s+)?([A-Za-z_$][\w$]*)\s*[:=]/g;
const MODULE_ATTRIBUTE = /^[ \t]*(@[a-z_][a-z0-9_]*)\b/gm;
const SHELL_FUNCTION = /^[ \t]*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{/gm;
// What ends every shell function header: source without it (most, `()` or not) is spared the line-by-line scan.
const SHELL_FUNCTION_END = /\(\)\s*\{/;
const EXPORTED_NAME =
  /^[ \t]*export\s+(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:declare\s+)?\w+\s+([A-Za-z_$][\w$]*)/gm;
// Identifier-shaped tokens worth naming: snake_case with an underscore, camelCase, PascalCase with two humps,
// dotted module paths, module attributes and keyword atoms. Single plain words are too common to matter.
// No group is repeated: V8 pushed backtracking state for every `.Name`, `_part` or hump of
// `(?:\.[A-Z][A-Za-z0-9]*)+`, `(?:_[a-z0-9]+)+`, `(?:[A-Z][a-z0-9]*)+`, `(?:[A-Z][a-z0-9]+)+` and threw RangeError on
// an edit of millions. Each run is one character class: a dotted path or a snake name stops lazily where the
// next character cannot continue it (a dotted path one segment earlier when `_` ends its last one, as `\b`
// made the old one give it back); a camelCase word is any run of letters and digits after its first capital; a
// PascalCase word is one with no two capitals in a row and a lowercase letter or digit last (that look-ahead
// before the first hump, which is then given back a character at a time without reading it again). A keyword
// atom's `:` comes before the look-behind for what precedes it, and the four word forms share one `\b`: written
// as `(?<=[\s([,{]):` and four `\b…` alternatives, the pattern ran that look-behind and those word-boundary tests
// at every position of a text, a third of its time. Exported for the test that holds it to the old pattern.
export const IDENTIFIER =
  /@[a-z_][a-z0-9_]*|:(?<=[\s([,{]:)[a-z_][a-z0-9_]*[?!]?|\b(?:[A-Z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9.]*?(?:(?![A-Za-z0-9_]|\.[A-Z])|(?=\.[A-Z][A-Za-z0-9]*_))|[a-z][a-z0-9]*_[a-z0-9][a-z0-9_]*?(?![a-z0-9]|_[a-z0-9])[?!]?|[a-z]+[A-Z][A-Za-z0-9]*\b|[A-Z](?![A-Za-z0-9]*[A-Z][A-Z])[a-z0-9]+[A-Z][A-Za-z0-9]*[a-z0-9]\b)/g;
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

/**
 * Adds the names `pattern` (global, never matching empty) finds in `text`: its group 1, else the whole match.
 * `required` is a string every match contains, or a pattern (not global) every match holds a match of: without
 * it in the text the pattern is not run (a search for it is cheaper than one for the pattern, which starts a
 * match attempt at every line or word).
 */
function collect(pattern: RegExp, text: string, out: Set<string>, required?: string | RegExp): void {
  if (typeof required === 'string' ? !text.includes(required) : required?.test(text) === false) return;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    addName(match[1] ?? match[0], out);
  }
}

function addName(name: string, out: Set<string>): void {
  if (name.length >= 2 && !KEYWORDS.has(name)) out.add(name);
}

/**
 * The names after definition keywords, in order, repeats included: what the regex `keyword\s+(?:\([^)]*\)\s*)?
 * ([A-Za-z_$][\w$.!?]*)` captures, matched globally. After a keyword and its blank comes either the name or a
 * `(`, which only the first `)` after it can close; where no name follows, the search goes on from the next
 * character, as a regex's would.
 */
export function definitionNames(text: string): string[] {
  const names: string[] = [];
  // The first `)` at or after `searchedFrom` (-1: none), and the name after it: keywords followed by `(` that
  // share a `)` share its answer, so a long run of them costs one search.
  let searchedFrom = -1;
  let close = -1;
  let nameAfterCloseAt = -1;
  let nameAfterClose: DefinedName | undefined;
  const nameAfterParenthesis = (open: number): DefinedName | undefined => {
    if (searchedFrom === -1 || open + 1 < searchedFrom || (close !== -1 && close <= open)) {
      searchedFrom = open + 1;
      close = text.indexOf(')', searchedFrom);
    }
    if (close === -1) return undefined;
    if (nameAfterCloseAt !== close) {
      nameAfterCloseAt = close;
      BLANKS.lastIndex = close + 1;
      BLANKS.exec(text);
      nameAfterClose = nameAt(text, BLANKS.lastIndex);
    }
    return nameAfterClose;
  };
  DEFINITION_KEYWORD.lastIndex = 0;
  for (let head = DEFINITION_KEYWORD.exec(text); head !== null; head = DEFINITION_KEYWORD.exec(text)) {
    const at = head.index + head[0].length;
    const found = text.charCodeAt(at) === 0x28 ? nameAfterParenthesis(at) : nameAt(text, at);
    if (found === undefined) {
      DEFINITION_KEYWORD.lastIndex = head.index + 1;
    } else {
      names.push(found.name);
      DEFINITION_KEYWORD.lastIndex = found.end;
    }
  }
  return names;
}

interface DefinedName {
  readonly name: string;
  readonly end: number;
}

function nameAt(text: string, at: number): DefinedName | undefined {
  DEFINED_NAME.lastIndex = at;
  const match = DEFINED_NAME.exec(text);
  return match === null ? undefined : { name: match[0], end: at + match[0].length };
}

/** The names a piece of source text defines, in order of appearance. */
export function definedNames(text: string): string[] {
  const out = new Set<string>();
  for (const name of definitionNames(text)) addName(name, out);
  collect(EXPORTED_NAME, text, out, 'export');
  collect(BINDING, text, out);
  collect(MODULE_ATTRIBUTE, text, out, '@');
  collect(SHELL_FUNCTION, text, out, SHELL_FUNCTION_END);
  return [...out];
}

/** Identifier-shaped tokens of a text (see `IDENTIFIER`), in order of appearance, each once. */
export function identifierTokens(text: string): string[] {
  const out = new Set<string>();
  collect(IDENTIFIER, text, out);
  return [...out];
}

/**
 * What an edit from `before` to `after` did to identifiers: names the new text defines, other identifiers it
 * introduces (at most 40), and definitions that disappeared. A whole-file write has an empty `before`.
 */
export function identifierChanges(before: string, after: string): IdentifierChanges {
  const defined = definedNames(after);
  const definedSet = new Set(defined);
  const old = new Set(identifierTokens(before));
  const added = firstNewTokens(after, (name) => !old.has(name) && !definedSet.has(name), MAX_ADDED);
  const removed = definedNames(before).filter((name) => !definedSet.has(name) && !after.includes(name));
  return { defined, added, removed, lines: addedLines(before, after) };
}

/**
 * The first `max` of {@link identifierTokens} that `keep` accepts, in order: the scan stops there, where a
 * whole-file write has its 40 new names long before its end.
 */
function firstNewTokens(text: string, keep: (name: string) => boolean, max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  IDENTIFIER.lastIndex = 0;
  for (let match = IDENTIFIER.exec(text); match !== null; match = IDENTIFIER.exec(text)) {
    const name = match[0];
    if (name.length < 2 || KEYWORDS.has(name) || seen.has(name)) continue;
    seen.add(name);
    if (keep(name)) out.push(name);
    if (out.length >= max) break;
  }
  // The pattern is exported, and `matchAll` starts where `lastIndex` says.
  IDENTIFIER.lastIndex = 0;
  return out;
}

/** Distinct short lines of `after` that `before` does not have, trimmed, in order. */
function addedLines(before: string, after: string): string[] {
  const old = keptLines(before);
  const out: string[] = [];
  // Lines are cut one at a time: the first 12 new ones are often near the top of a long file.
  for (let start = 0; start <= after.length && out.length < MAX_LINES; ) {
    const newline = after.indexOf('\n', start);
    const end = newline === -1 ? after.length : newline;
    const line = after.slice(start, end).trim();
    start = end + 1;
    if (line.length < 8 || line.length > 100 || old.has(line) || TRIVIAL_LINE.test(line)) continue;
    if (out.includes(line)) continue;
    out.push(line);
  }
  return out;
}

/**
 * The trimmed lines of `text` that {@link addedLines} may look up: those 8 to 100 characters long once trimmed
 * (a shorter line is never looked up), read without splitting the whole text into an array first.
 */
function keptLines(text: string): Set<string> {
  const out = new Set<string>();
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (end - start >= 8) {
      const line = text.slice(start, end).trim();
      if (line.length >= 8 && line.length <= 100) out.add(line);
    }
    start = end + 1;
  }
  return out;
}
