import { capArtifact, firstLine } from '../../inspect/artifact-patterns.js';
import { resultErrorLines } from '../../inspect/artifacts.js';
import { callArgumentObjectOf } from '../../inspect/call-arguments.js';
import { type IdentifierChanges, identifierChanges } from '../../inspect/code-identifiers.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import { isJsonObject } from '../../model/json.js';
import type { ToolCallPart, ToolResultPart } from '../../model/part.js';
import { clip, flattenUpTo } from './sentences.js';

/** What kind of thing a tool call did, as written in Completed Actions. */
export type ActionVerb =
  | 'RUN'
  | 'READ'
  | 'EDIT'
  | 'CREATE'
  | 'SEARCH'
  | 'LIST'
  | 'FETCH'
  | 'PLAN'
  | 'DELEGATE'
  | 'CALL';

/** One tool call and its outcome, reduced to what a checkpoint keeps. */
export interface ActionFact {
  readonly tool: string;
  readonly verb: ActionVerb;
  /** What the call acted on, with exact strings (command, path, URL, query or a short argument list). */
  readonly target: string;
  /** `ok`, `ok: <short output>`, `exit 0`, `failed: <error line>`… */
  readonly outcome: string;
  /** The outcome without the output digest, used when the budget is tight. */
  readonly shortOutcome: string;
  readonly failed: boolean;
  /** Error lines of the result (exact). */
  readonly errorLines: readonly string[];
  /** File paths named in the arguments. */
  readonly paths: readonly string[];
  /** Exact command (first line) when the call ran one. */
  readonly command?: string;
  /** The line of a test or build run's output that sums it up (`410 tests, 0 failures`). */
  readonly summaryLine?: string;
  /** The whole command text, every line, when the call ran one. */
  readonly fullCommand?: string;
  /** What a write or edit did to its file, told from the tool's answer where it says. */
  readonly effect?: FileEffect;
  /** Identifiers the edit or write defined, introduced or removed. */
  readonly changes?: IdentifierChanges;
}

/** What a call did to a file: `written` when the answer does not say whether the file existed. */
export type FileEffect = 'created' | 'modified' | 'written' | 'deleted';

const COMMAND_KEYS = ['command', 'cmd', 'script', 'shell_command'];
const PATH_KEYS = [
  'file_path',
  'path',
  'notebook_path',
  'filepath',
  'filename',
  'file_name',
  'file',
  'paths',
];
const URL_KEYS = ['url', 'uri', 'href', 'link'];
const QUERY_KEYS = ['pattern', 'query', 'q', 'regex', 'search', 'search_term', 'glob', 'prompt_query'];
// A Map, not an object: a shell command `constructor` or `toString` must not find an inherited property.
const EDITOR_VERBS: ReadonlyMap<string, ActionVerb> = new Map<string, ActionVerb>([
  ['view', 'READ'],
  ['create', 'CREATE'],
  ['str_replace', 'EDIT'],
  ['insert', 'EDIT'],
  ['undo_edit', 'EDIT'],
]);

// Tool names by what their calls do, tried in this order (module constants: a literal in the function would
// be a new RegExp object at every call).
const PLAN_TOOL = /todo/;
const EDIT_TOOL = /multi_?edit|edit|replace|patch|apply|insert/;
const CREATE_TOOL = /write|create|new_?file|save/;
const SEARCH_TOOL = /grep|search|find|glob|lookup/;
const LIST_TOOL = /^ls$|list|tree|dir/;
const READ_TOOL = /read|view|open|cat|show|get_?file/;
const FETCH_TOOL = /fetch|browse|http|web|download|url/;
const DELEGATE_TOOL = /^task$|agent|delegate|spawn/;
const LINE_BREAK = /[\r\n]/;

function stringAt(args: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

function pathsOf(args: JsonObject): string[] {
  const out: string[] = [];
  for (const key of PATH_KEYS) {
    const value = args[key];
    if (typeof value === 'string' && value.trim() !== '' && !LINE_BREAK.test(value)) out.push(value.trim());
    else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string' && item.trim() !== '') out.push(item.trim());
    }
  }
  return out;
}

function classify(
  name: string,
  args: JsonObject,
  command: string | undefined,
  paths: readonly string[],
): ActionVerb {
  const lower = name.toLowerCase();
  const editorVerb = command === undefined ? undefined : EDITOR_VERBS.get(command);
  if (editorVerb !== undefined) return editorVerb;
  if (command !== undefined) return 'RUN';
  if (PLAN_TOOL.test(lower)) return 'PLAN';
  if (EDIT_TOOL.test(lower)) return 'EDIT';
  if (CREATE_TOOL.test(lower)) return 'CREATE';
  if (SEARCH_TOOL.test(lower)) return 'SEARCH';
  if (LIST_TOOL.test(lower)) return 'LIST';
  if (READ_TOOL.test(lower) && paths.length > 0) return 'READ';
  if (FETCH_TOOL.test(lower) || stringAt(args, URL_KEYS) !== undefined) return 'FETCH';
  if (DELEGATE_TOOL.test(lower)) return 'DELEGATE';
  return 'CALL';
}

function renderScalar(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') {
    // A longer text is clipped to 60, so its first 301 flattened characters decide.
    const flat = flattenUpTo(value, 300);
    // Paths and URLs stay whole: they are what the checkpoint exists to keep.
    return /[/\\]/.test(flat) && flat.length <= 300 && !/\s/.test(flat) ? flat : clip(flat, 60);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.length}]`;
  return value === undefined ? undefined : '{…}';
}

function argumentList(args: JsonObject): string {
  const pieces: string[] = [];
  let length = 0;
  for (const [key, value] of Object.entries(args)) {
    const rendered = renderScalar(value);
    if (rendered === undefined) continue;
    const piece = `${key}=${rendered}`;
    if (length + piece.length > 200 && pieces.length > 0) {
      pieces.push('…');
      break;
    }
    pieces.push(piece);
    length += piece.length + 2;
  }
  return pieces.join(', ');
}

function commandTarget(command: string, first: string): string {
  const whole = command.trim();
  const breaks = newlines(whole);
  const end = whole.indexOf('\n');
  const cut = first.length < (end === -1 ? whole : whole.slice(0, end)).trim().length ? '…' : '';
  return `\`${first}${cut}\`${breaks > 0 ? ` (+${breaks} lines)` : ''}`;
}

/**
 * What the call acted on. `first` is the command's first line, `paths` the call's {@link pathsOf}; the URL and
 * the query are looked up only for the verbs that show them.
 */
function targetOf(
  verb: ActionVerb,
  args: JsonObject,
  command: string | undefined,
  first: string,
  paths: readonly string[],
  raw: string,
): string {
  if (verb === 'RUN' && command !== undefined) return commandTarget(command, first);
  switch (verb) {
    case 'READ':
    case 'EDIT':
    case 'CREATE':
    case 'LIST':
      if (paths.length > 0) return paths.join(', ');
      break;
    case 'SEARCH': {
      const query = stringAt(args, QUERY_KEYS);
      if (query !== undefined)
        return `"${clip(query, 120)}"${paths.length > 0 ? ` in ${paths.join(', ')}` : ''}`;
      break;
    }
    case 'FETCH': {
      const url = stringAt(args, URL_KEYS);
      if (url !== undefined) return capArtifact(url);
      const query = stringAt(args, QUERY_KEYS);
      if (query !== undefined) return `"${clip(query, 120)}"`;
      break;
    }
    case 'PLAN': {
      const todos = args['todos'];
      return Array.isArray(todos) ? `todo list (${todos.length} items)` : argumentList(args);
    }
    case 'DELEGATE': {
      const description = stringAt(args, ['description', 'prompt', 'task']);
      if (description !== undefined) return `"${clip(description, 100)}"`;
      break;
    }
    case 'RUN':
    case 'CALL':
      break;
  }
  const list = Object.keys(args).length > 0 ? argumentList(args) : clip(raw, 120);
  return list === '' ? '(no arguments)' : list;
}

const EXIT_CODE = /\b(?:exit(?:ed with)? (?:code|status)|exit_code|returncode)[:= ]\s*(-?\d+)/i;
const FAILURE_START =
  /^\s*(?:error\b|fatal\b|traceback\b|exception\b|\w+(?:Error|Exception)\b|failed\b|<tool_use_error>)/i;

/** The text parts of a result joined by line feeds (the other parts as empty lines), trimmed. */
function resultText(result: ToolResultPart): string {
  const content = result.content;
  // One text part, the usual case, needs no array and no join.
  if (content.length === 1) {
    const only = content[0] as ToolResultPart['content'][number];
    return only.type === 'text' ? only.text.trim() : '';
  }
  return content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
    .trim();
}

/** The outcome of a call from its result and the result's {@link resultText}. */
function outcomeOf(
  result: ToolResultPart | undefined,
  text: string,
  verb: ActionVerb,
): { outcome: string; shortOutcome: string; failed: boolean; errorLines: string[] } {
  if (result === undefined)
    return { outcome: 'no result', shortOutcome: 'no result', failed: false, errorLines: [] };
  const exit = EXIT_CODE.exec(text)?.[1];
  const exitCode = exit === undefined ? undefined : Number(exit);
  const head = firstLine(text);
  const errorLines = resultErrorLines(result);
  if (result.isError === true && head !== '' && !errorLines.includes(head)) errorLines.push(head);
  const failed =
    result.isError === true || (exitCode !== undefined && exitCode !== 0) || FAILURE_START.test(head);
  if (failed) {
    const line = errorLines.find((candidate) => !/^exit code \d+$/i.test(candidate)) ?? errorLines[0] ?? head;
    const code = exitCode === undefined ? '' : ` (exit ${exitCode})`;
    const more = errorLines.length > 1 ? ` (+${errorLines.length - 1} more error lines)` : '';
    const outcome = `failed${code}: ${line}${more}`;
    return { outcome, shortOutcome: `failed${code}: ${line}`, failed, errorLines };
  }
  const base = exitCode === undefined ? 'ok' : `exit ${exitCode}`;
  if (text === '') return { outcome: `${base}, no output`, shortOutcome: base, failed, errorLines };
  const lines = newlines(text) + 1;
  const digest =
    lines === 1 && text.length <= 100 && verb !== 'READ'
      ? `${base}: ${text}`
      : lines > 1
        ? `${base} (${lines} lines)`
        : base;
  return { outcome: digest, shortOutcome: base, failed, errorLines };
}

/** Reduces a tool call and its result (when there is one) to an {@link ActionFact}. */
export function describeAction(call: ToolCallPart, result: ToolResultPart | undefined): ActionFact {
  const args: JsonObject = callArgumentObjectOf(call) ?? {};
  const command = stringAt(args, COMMAND_KEYS);
  // Read once here: the verb, the target and the fact all use them.
  const paths = pathsOf(args);
  const first = command === undefined ? '' : firstLine(command);
  const text = result === undefined ? '' : resultText(result);
  const verb = classify(call.name, args, command, paths);
  const target = targetOf(verb, args, command, first, paths, call.arguments);
  const outcome = outcomeOf(result, text, verb);
  const running = verb === 'RUN' && command !== undefined;
  const effect = outcome.failed ? undefined : effectOf(verb, text);
  const summaryLine = running && result !== undefined ? summaryLineOf(text) : undefined;
  const changes = verb === 'EDIT' || verb === 'CREATE' ? editChanges(args) : undefined;
  // Built field by field, in the order the optional fields always had, without spreading objects.
  const fact: { -readonly [Key in keyof ActionFact]: ActionFact[Key] } = {
    tool: call.name,
    verb,
    target,
    outcome: outcome.outcome,
    shortOutcome: outcome.shortOutcome,
    failed: outcome.failed,
    errorLines: outcome.errorLines,
    paths,
  };
  if (running) {
    fact.command = first;
    fact.fullCommand = command;
  }
  if (effect !== undefined) fact.effect = effect;
  if (summaryLine !== undefined) fact.summaryLine = summaryLine;
  if (changes !== undefined) fact.changes = changes;
  return fact;
}

/** What a write did to its file, from `output`, the {@link resultText} of its result (`''` without one). */
function effectOf(verb: ActionVerb, output: string): FileEffect | undefined {
  if (verb === 'EDIT') return 'modified';
  if (verb !== 'CREATE') return undefined;
  const text = output.slice(0, 400);
  if (/\b(?:updated|overwr[io]tten|modified|replaced|edited)\b/i.test(text)) return 'modified';
  if (/\bcreated\b/i.test(text)) return 'created';
  return 'written';
}

const OLD_KEYS = ['old_string', 'old_str', 'old_text', 'search'];
const NEW_KEYS = ['new_string', 'new_str', 'new_text', 'replace'];
const CONTENT_KEYS = ['content', 'contents', 'file_text', 'text', 'code', 'new_source'];

function textAt(args: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The old and new text of an edit or write, from the argument shapes agents use (edits lists and diffs too). */
function editChanges(args: JsonObject): IdentifierChanges | undefined {
  const pieces: [string, string][] = [];
  const after = textAt(args, NEW_KEYS);
  if (after !== undefined) pieces.push([textAt(args, OLD_KEYS) ?? '', after]);
  const edits = args['edits'];
  if (Array.isArray(edits)) {
    for (const edit of edits) {
      if (!isJsonObject(edit)) continue;
      const next = textAt(edit, NEW_KEYS);
      if (next !== undefined) pieces.push([textAt(edit, OLD_KEYS) ?? '', next]);
    }
  }
  const content = textAt(args, CONTENT_KEYS);
  if (pieces.length === 0 && content !== undefined) pieces.push(['', content]);
  const diff = textAt(args, ['patch', 'diff', 'input']);
  if (pieces.length === 0 && diff !== undefined && /^[+-]/m.test(diff)) pieces.push(diffSides(diff));
  if (pieces.length === 0) return undefined;
  return identifierChanges(pieces.map(([old]) => old).join('\n'), pieces.map(([, next]) => next).join('\n'));
}

function diffSides(diff: string): [string, string] {
  const removed: string[] = [];
  const added: string[] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added.push(line.slice(1));
    else if (line.startsWith('-') && !line.startsWith('---')) removed.push(line.slice(1));
  }
  return [removed.join('\n'), added.join('\n')];
}

/** The line of an action in Completed Actions (without its number). */
export function actionLine(action: ActionFact, short: boolean): string {
  return `${action.verb} ${action.target} — ${short ? action.shortOutcome : action.outcome} [tool: ${action.tool}]`;
}

const TEST_SUMMARY =
  /\b\d+ (?:tests?|doctests?|passed|failed|failures?|errors?|examples?|specs?|skipped|warnings?)\b/i;

/** The line of a test or build output that sums it up (`14 doctests, 410 tests, 0 failures`), the last one. */
export function summaryLineOf(output: string): string | undefined {
  if (!TEST_SUMMARY.test(output)) return undefined;
  const lines = output.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] as string;
    if (TEST_SUMMARY.test(line)) return clip(line.trim(), 160);
  }
  return undefined;
}

/** How many `\n` a text holds (`split('\n').length - 1` without the array). */
function newlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
