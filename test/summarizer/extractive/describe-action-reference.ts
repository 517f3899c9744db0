// src/summarizer/extractive/describe-action.ts as it was before issue 15's second round (the result's text, first
// line and paths read again by each part, whole texts flattened), kept as the oracle of the faster version (its types are the module's own).
import { capArtifact, firstLine } from '../../../src/inspect/artifact-patterns.js';
import { resultErrorLines } from '../../../src/inspect/artifacts.js';
import { callArgumentObjectOf } from '../../../src/inspect/call-arguments.js';
import type { IdentifierChanges } from '../../../src/inspect/code-identifiers.js';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import { isJsonObject } from '../../../src/model/json.js';
import type { ToolCallPart, ToolResultPart } from '../../../src/model/part.js';
import type {
  ActionFact,
  ActionVerb,
  FileEffect,
} from '../../../src/summarizer/extractive/describe-action.js';
import { referenceIdentifierChanges as identifierChanges } from '../../inspect/code-identifiers-reference.js';
import { clip } from './sentences-reference.js';

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
    if (typeof value === 'string' && value.trim() !== '' && !/[\r\n]/.test(value)) out.push(value.trim());
    else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string' && item.trim() !== '') out.push(item.trim());
    }
  }
  return out;
}

function classify(name: string, args: JsonObject, command: string | undefined): ActionVerb {
  const lower = name.toLowerCase();
  const editorVerb = command === undefined ? undefined : EDITOR_VERBS.get(command);
  if (editorVerb !== undefined) return editorVerb;
  if (command !== undefined) return 'RUN';
  if (/todo/.test(lower)) return 'PLAN';
  if (/multi_?edit|edit|replace|patch|apply|insert/.test(lower)) return 'EDIT';
  if (/write|create|new_?file|save/.test(lower)) return 'CREATE';
  if (/grep|search|find|glob|lookup/.test(lower)) return 'SEARCH';
  if (/^ls$|list|tree|dir/.test(lower)) return 'LIST';
  if (/read|view|open|cat|show|get_?file/.test(lower) && pathsOf(args).length > 0) return 'READ';
  if (/fetch|browse|http|web|download|url/.test(lower) || stringAt(args, URL_KEYS) !== undefined)
    return 'FETCH';
  if (/^task$|agent|delegate|spawn/.test(lower)) return 'DELEGATE';
  return 'CALL';
}

function renderScalar(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') {
    const flat = value.replace(/\s+/g, ' ').trim();
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

function commandTarget(command: string): string {
  const first = firstLine(command);
  const all = command.trim().split('\n');
  const lines = all.length;
  const cut = first.length < (all[0] ?? '').trim().length ? '…' : '';
  return `\`${first}${cut}\`${lines > 1 ? ` (+${lines - 1} lines)` : ''}`;
}

function targetOf(verb: ActionVerb, args: JsonObject, command: string | undefined, raw: string): string {
  if (verb === 'RUN' && command !== undefined) return commandTarget(command);
  const paths = pathsOf(args);
  const url = stringAt(args, URL_KEYS);
  const query = stringAt(args, QUERY_KEYS);
  switch (verb) {
    case 'READ':
    case 'EDIT':
    case 'CREATE':
    case 'LIST':
      if (paths.length > 0) return paths.join(', ');
      break;
    case 'SEARCH':
      if (query !== undefined)
        return `"${clip(query, 120)}"${paths.length > 0 ? ` in ${paths.join(', ')}` : ''}`;
      break;
    case 'FETCH':
      if (url !== undefined) return capArtifact(url);
      if (query !== undefined) return `"${clip(query, 120)}"`;
      break;
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

function resultText(result: ToolResultPart): string {
  return result.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
    .trim();
}

function outcomeOf(
  result: ToolResultPart | undefined,
  verb: ActionVerb,
): { outcome: string; shortOutcome: string; failed: boolean; errorLines: string[] } {
  if (result === undefined)
    return { outcome: 'no result', shortOutcome: 'no result', failed: false, errorLines: [] };
  const text = resultText(result);
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
  const verb = classify(call.name, args, command);
  const target = targetOf(verb, args, command, call.arguments);
  const outcome = outcomeOf(result, verb);
  const running = verb === 'RUN' && command !== undefined;
  const effect = outcome.failed ? undefined : effectOf(verb, result);
  const summaryLine = running && result !== undefined ? summaryLineOf(resultText(result)) : undefined;
  const changes = verb === 'EDIT' || verb === 'CREATE' ? editChanges(args) : undefined;
  return {
    tool: call.name,
    verb,
    target,
    ...outcome,
    paths: pathsOf(args),
    ...(running ? { command: firstLine(command), fullCommand: command } : {}),
    ...(effect === undefined ? {} : { effect }),
    ...(summaryLine === undefined ? {} : { summaryLine }),
    ...(changes === undefined ? {} : { changes }),
  };
}

function effectOf(verb: ActionVerb, result: ToolResultPart | undefined): FileEffect | undefined {
  if (verb === 'EDIT') return 'modified';
  if (verb !== 'CREATE') return undefined;
  const text = result === undefined ? '' : resultText(result).slice(0, 400);
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
