import type { JsonObject, JsonValue } from '../model/json.js';
import type { ToolCallPart } from '../model/part.js';
import { isUrl, looksLikePath } from './artifact-shapes.js';
import { oneLine, truncateStart } from './text-facts.js';
import { parseToolArguments } from './tool-arguments.js';

/** What an argument value is, in the order digests list them. */
export type SalientKind = 'command' | 'path' | 'url' | 'query' | 'pattern' | 'id' | 'value';

/** One argument value worth showing in a one-line description of a call. */
export interface SalientArgument {
  /** Where the value sits in the arguments: `file_path`, `edits[0].file_path`, `urls[1]`. */
  readonly key: string;
  readonly kind: SalientKind;
  /** Paths and URLs verbatim; commands cut at the end only; other kinds on one line, cut to fit. */
  readonly value: string;
  readonly truncated: boolean;
}

/** Options of {@link salientArguments}. */
export interface SalientArgumentOptions {
  /** Longest command kept whole; longer ones keep their start. @default 300 */
  readonly maxCommandChars?: number;
  /** Longest path or URL kept whole (longer ones are data, not locations). @default 1000 */
  readonly maxLocationChars?: number;
  /** Longest query or pattern kept whole. @default 200 */
  readonly maxQueryChars?: number;
  /** Longest other value kept whole. @default 80 */
  readonly maxValueChars?: number;
  /** How many queries, patterns, ids and other values to list; commands, paths and URLs are never dropped. @default 4 */
  readonly maxOther?: number;
}

const DEFAULTS: Required<SalientArgumentOptions> = {
  maxCommandChars: 300,
  maxLocationChars: 1000,
  maxQueryChars: 200,
  maxValueChars: 80,
  maxOther: 4,
};

const RANK: Readonly<Record<SalientKind, number>> = {
  command: 0,
  path: 1,
  url: 2,
  query: 3,
  pattern: 4,
  id: 5,
  value: 6,
};

const COMMAND_KEY = /^(?:command|cmd|commands|script|shell_command)$/i;
const PATH_KEY =
  /^(?:path|paths|file|files|file_?path|filepath|file_?name|notebook_path|dir|directory|cwd|workdir|working_directory|target_file|absolute_path|input_path|output_path|old_path|new_path|folder|root)$/i;
const URL_KEY = /^(?:url|urls|uri|href|link|links|endpoint|base_url|website|website_url)$/i;
const QUERY_KEY = /^(?:query|q|queries|search|search_query|search_term|question|keyword|keywords|topic)$/i;
const PATTERN_KEY = /^(?:pattern|regex|glob|include|exclude|name_pattern)$/i;
const ID_KEY = /(?:^id$|_id$|[a-z]Id$|ID$|^uuid$|_ids$)/;
/** File content being written or replaced: data, not a description of the call. */
export const CONTENT_KEY =
  /^(?:content|contents|new_string|old_string|new_str|old_str|file_text|text|patch|diff|body|new_source|edits|todos)$/i;

/**
 * The argument values that say what a call did, most telling first: commands, paths, URLs, queries, patterns,
 * ids, then other short scalars. Keys and value shapes decide (`file_path`, a value starting with `./` or
 * `https://`). File content being written is skipped. Unparseable arguments give none.
 */
export function salientArguments(
  call: Pick<ToolCallPart, 'arguments'>,
  options: SalientArgumentOptions = {},
): SalientArgument[] {
  const args = parseToolArguments(call.arguments);
  return args === undefined ? [] : salientOf(args, options);
}

/** {@link salientArguments} for already parsed arguments. */
export function salientOf(args: JsonObject, options: SalientArgumentOptions = {}): SalientArgument[] {
  const limits = { ...DEFAULTS, ...options };
  const found: SalientArgument[] = [];
  walk(args, '', undefined, 0, limits, found);
  const ordered = found
    .map((argument, order) => ({ argument, order }))
    .sort((left, right) => RANK[left.argument.kind] - RANK[right.argument.kind] || left.order - right.order)
    .map(({ argument }) => argument);
  let others = 0;
  return ordered.filter((argument) => {
    if (argument.kind === 'command' || argument.kind === 'path' || argument.kind === 'url') return true;
    others++;
    return others <= limits.maxOther;
  });
}

function walk(
  value: JsonValue | undefined,
  path: string,
  key: string | undefined,
  depth: number,
  limits: Required<SalientArgumentOptions>,
  out: SalientArgument[],
): void {
  if (value === undefined || value === null || depth > 4) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      walk(item, `${path}[${index}]`, key, depth + 1, limits, out);
    });
    return;
  }
  if (typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      if (CONTENT_KEY.test(name)) continue;
      walk(item, path === '' ? name : `${path}.${name}`, name, depth + 1, limits, out);
    }
    return;
  }
  const argument = classify(path, key ?? '', value, depth, limits);
  if (argument !== undefined) out.push(argument);
}

function classify(
  path: string,
  key: string,
  raw: string | number | boolean,
  depth: number,
  limits: Required<SalientArgumentOptions>,
): SalientArgument | undefined {
  const text = String(raw);
  if (text.trim() === '') return undefined;
  if (typeof raw === 'string') {
    if (COMMAND_KEY.test(key) || (key === 'code' && /\s/.test(raw.trim()))) {
      return cut(path, 'command', raw.trim(), limits.maxCommandChars, false);
    }
    const single = raw.trim();
    const bare = !/\s/.test(single);
    if ((isUrl(single) || (URL_KEY.test(key) && bare)) && single.length <= limits.maxLocationChars) {
      return cut(path, 'url', single, Infinity, false);
    }
    if (looksLikePath(single) || (PATH_KEY.test(key) && bare && single.length <= 300)) {
      if (single.length <= limits.maxLocationChars) return cut(path, 'path', single, Infinity, false);
    }
    if (QUERY_KEY.test(key)) return cut(path, 'query', raw, limits.maxQueryChars, true);
    if (PATTERN_KEY.test(key)) return cut(path, 'pattern', raw, limits.maxQueryChars, true);
  }
  if (ID_KEY.test(key)) return cut(path, 'id', text, limits.maxValueChars, true);
  // Nested scalars that are neither locations nor ids are detail (flight numbers inside a booking).
  if (depth > 1) return undefined;
  return cut(path, 'value', text, limits.maxValueChars, true);
}

function cut(key: string, kind: SalientKind, value: string, max: number, flatten: boolean): SalientArgument {
  const shown = flatten ? oneLine(value) : value;
  const short = truncateStart(shown, max);
  return { key, kind, value: short, truncated: short !== shown };
}
