import { countNonBlankLines, firstNonBlankLine } from '../inspect/text-lines.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json.js';
import { looksLikePath, urlsIn } from './artifact-shapes.js';
import { searchHits } from './output-facts.js';
import { salientOf } from './salient-arguments.js';
import { formatCount, lineCount, nonBlankLines, oneLine, plural, truncateStart } from './text-facts.js';
import { arrayArgument, numberArgument, stringArgument } from './tool-arguments.js';
import type { ToolKind } from './tool-kind.js';

/** What a digest line is built from. */
export interface DigestFacts {
  readonly name: string;
  readonly args: JsonObject | undefined;
  /** The text of the output. */
  readonly text: string;
  readonly images: number;
  readonly exit: number | undefined;
  readonly failed: boolean;
}

const MAX_COMMAND = 300;
const MAX_QUERY = 200;
const MAX_LABEL = 120;
const MAX_FIRST_LINE = 160;
const PATH_KEYS = ['file_path', 'path', 'file', 'filename', 'target_file', 'notebook_path', 'absolute_path'];

/** The part of a digest after its prefix: what was called with what, and what came back. */
export function describeCall(kind: ToolKind, facts: DigestFacts): string {
  switch (kind) {
    case 'shell':
      return shell(facts);
    case 'read':
      return read(facts);
    case 'search':
      return search(facts);
    case 'glob':
      return glob(facts);
    case 'web-search':
      return webSearch(facts);
    case 'fetch':
      return fetch(facts);
    case 'edit':
      return edit(facts);
    case 'write':
      return write(facts);
    case 'todo':
      return todo(facts);
    case 'task':
      return task(facts);
    case 'unknown':
      return generic(facts);
  }
}

function shell(facts: DigestFacts): string {
  const { args, exit, failed, text } = facts;
  const command = stringArgument(args, 'command', 'cmd', 'script') ?? listCommand(args);
  const code = stringArgument(args, 'code', 'source');
  let what = salientText(args);
  if (command !== undefined) what = `\`${truncateStart(command.trim(), MAX_COMMAND)}\``;
  // Code run by an interpreter is a program, not a command line: its first line says enough.
  else if (code !== undefined) what = `\`${codeStart(code)}\``;
  const lines = lineCount(text);
  const outcome = [exit === undefined ? (failed ? 'failed' : '') : `exit ${exit}`];
  outcome.push(lines === 0 ? 'no output' : plural(lines, 'line'));
  return `${join(facts.name, what)} → ${outcome.filter((item) => item !== '').join(', ')}${sizeNote(facts)}`;
}

function codeStart(code: string): string {
  const trimmed = code.trim();
  const shown = truncateStart(firstNonBlankLine(trimmed), MAX_LABEL);
  return shown === trimmed || shown.endsWith('…') ? shown : `${shown} …`;
}

function listCommand(args: JsonObject | undefined): string | undefined {
  const list = arrayArgument(args, 'command', 'cmd', 'commands');
  if (list === undefined || !list.every((item) => typeof item === 'string')) return undefined;
  return list.join(' ');
}

function read(facts: DigestFacts): string {
  const path = stringArgument(facts.args, ...PATH_KEYS, 'uri') ?? '?';
  const range = lineRange(facts.args);
  const target = range === undefined ? path : `${path} ${range}`;
  return `${join(facts.name, target)} → ${outcomeWord(facts)}${plural(lineCount(facts.text), 'line')}${sizeNote(facts)}`;
}

function lineRange(args: JsonObject | undefined): string | undefined {
  const view = arrayArgument(args, 'view_range');
  if (view !== undefined && typeof view[0] === 'number') {
    return typeof view[1] === 'number' && view[1] >= 0
      ? `lines ${view[0]}-${view[1]}`
      : `from line ${view[0]}`;
  }
  const start = numberArgument(args, 'offset', 'start_line', 'line_start', 'from_line');
  const end = numberArgument(args, 'end_line', 'line_end', 'to_line');
  const limit = numberArgument(args, 'limit', 'max_lines');
  if (end !== undefined) return `lines ${start ?? 1}-${end}`;
  if (limit !== undefined) return `lines ${start ?? 1}-${(start ?? 1) + limit - 1}`;
  if (start !== undefined) return `from line ${start}`;
  const at = numberArgument(args, 'line_number', 'line');
  return at === undefined ? undefined : `at line ${at}`;
}

function search(facts: DigestFacts): string {
  const { args } = facts;
  const pattern = stringArgument(args, 'pattern', 'regex', 'query', 'search_term', 'q', 'search');
  const where = stringArgument(args, 'path', 'dir', 'directory', 'file_path', 'cwd');
  const filter = stringArgument(args, 'glob', 'include', 'file_pattern', 'type');
  let target = pattern === undefined ? salientText(args) : `'${truncateStart(oneLine(pattern), MAX_QUERY)}'`;
  if (where !== undefined) target += ` in ${where}`;
  if (filter !== undefined) target += ` (${filter})`;
  return `${join(facts.name, target)} → ${outcomeWord(facts)}${searchHits(facts.text)}${firstHits(facts.text)}`;
}

function glob(facts: DigestFacts): string {
  const pattern = stringArgument(facts.args, 'pattern', 'glob', 'name', 'file_name', 'name_pattern');
  const where = stringArgument(facts.args, 'path', 'dir', 'directory', 'cwd', 'target_directory');
  let target = pattern === undefined ? '' : `'${pattern}'`;
  if (where !== undefined) target = target === '' ? where : `${target} in ${where}`;
  const count = countNonBlankLines(facts.text);
  const unit = pattern === undefined ? 'entry' : 'path';
  const hits = count === 0 ? 'nothing found' : plural(count, unit);
  return `${join(facts.name, target)} → ${outcomeWord(facts)}${hits}${firstHits(facts.text)}`;
}

/** The first few paths an output lists, so the digest says what was found and not only how much. */
function firstHits(text: string): string {
  const found: string[] = [];
  for (const line of nonBlankLines(text.slice(0, 20_000))) {
    const candidate = line.split(/[:\s]/)[0] ?? '';
    if (looksLikePath(candidate) && !found.includes(candidate)) found.push(candidate);
    if (found.length === 3) break;
  }
  return found.length === 0 ? '' : `: ${found.join(', ')}${countNonBlankLines(text) > 3 ? ', …' : ''}`;
}

function webSearch(facts: DigestFacts): string {
  const query = stringArgument(facts.args, 'query', 'q', 'search_query', 'search', 'queries');
  const target =
    query === undefined ? salientText(facts.args) : `'${truncateStart(oneLine(query), MAX_QUERY)}'`;
  const urls = [...new Set(urlsIn(facts.text.slice(0, 50_000)))].slice(0, 3);
  const links = urls.length === 0 ? '' : `: ${urls.join(', ')}`;
  return `${join(facts.name, target)} → ${outcomeWord(facts)}${sizeText(facts)}${links}`;
}

function fetch(facts: DigestFacts): string {
  const urls = arrayArgument(facts.args, 'urls')?.filter((url): url is string => typeof url === 'string');
  const url = stringArgument(facts.args, 'url', 'uri', 'href', 'link');
  const target = url ?? (urls !== undefined && urls.length > 0 ? urls.join(', ') : salientText(facts.args));
  return `${join(facts.name, target)} → ${outcomeWord(facts)}${sizeText(facts)}`;
}

function edit(facts: DigestFacts): string {
  const { args } = facts;
  const path = stringArgument(args, ...PATH_KEYS);
  const edits = arrayArgument(args, 'edits');
  const patch = stringArgument(args, 'patch', 'diff', 'input');
  const outcome = ` → ${facts.failed ? 'failed' : 'done'}${sizeNote(facts)}`;
  if (
    patch !== undefined &&
    edits === undefined &&
    stringArgument(args, 'old_string', 'old_str') === undefined
  ) {
    return `${join(facts.name, patchSummary(patch, path))}${outcome}`;
  }
  let change = replacement(args);
  if (edits !== undefined) {
    const sizes = editSizes(edits);
    change = `${plural(edits.length, 'edit')}, ${sizes.old} → ${sizes.new} chars`;
  }
  return `${join(facts.name, path === undefined ? `(${change})` : `${path} (${change})`)}${outcome}`;
}

/** What one replacement changed: sizes of the old and new text, or where text was inserted. */
function replacement(args: JsonObject | undefined): string {
  const before = stringArgument(args, 'old_string', 'old_str', 'search');
  const after = stringArgument(args, 'new_string', 'new_str', 'replace', 'replacement_text', 'text') ?? '';
  const start = numberArgument(args, 'start_line');
  const end = numberArgument(args, 'end_line');
  const at = numberArgument(args, 'insert_line', 'line');
  if (before !== undefined) return `${formatCount(before.length)} → ${formatCount(after.length)} chars`;
  if (start !== undefined) return `lines ${start}-${end ?? start} → ${formatCount(after.length)} chars`;
  return `inserted ${formatCount(after.length)} chars${at === undefined ? '' : ` at line ${at}`}`;
}

function editSizes(edits: readonly JsonValue[]): { old: string; new: string } {
  let before = 0;
  let after = 0;
  for (const item of edits) {
    if (!isJsonObject(item)) continue;
    before += (stringArgument(item, 'old_string', 'old_str') ?? '').length;
    after += (stringArgument(item, 'new_string', 'new_str') ?? '').length;
  }
  return { old: formatCount(before), new: formatCount(after) };
}

/** Files and line counts of a unified diff or an `apply_patch` envelope. */
function patchSummary(patch: string, path: string | undefined): string {
  const files: string[] = path === undefined ? [] : [path];
  let added = 0;
  let removed = 0;
  for (const line of patch.split('\n')) {
    const header = /^(?:\*\*\* (?:Update|Add|Delete) File: |\+\+\+ (?:b\/)?|--- (?:a\/)?)(.+)$/.exec(line);
    const file = header?.[1]?.trim();
    if (file !== undefined) {
      if (file !== '/dev/null' && !files.includes(file)) files.push(file);
    } else if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return `${files.length === 0 ? '?' : files.join(', ')} (+${added} -${removed} lines)`;
}

function write(facts: DigestFacts): string {
  const path = stringArgument(facts.args, ...PATH_KEYS) ?? '?';
  const content = stringArgument(facts.args, 'content', 'contents', 'file_text', 'text');
  const written =
    content === undefined
      ? ''
      : ` (${plural(lineCount(content), 'line')}, ${formatCount(content.length)} chars)`;
  return `${join(facts.name, `${path}${written}`)} → ${facts.failed ? 'failed' : 'done'}${sizeNote(facts)}`;
}

function todo(facts: DigestFacts): string {
  const todos = arrayArgument(facts.args, 'todos', 'items', 'tasks');
  if (todos === undefined) return generic(facts);
  const counts = new Map<string, number>();
  for (const item of todos) {
    const status = isJsonObject(item) ? item['status'] : undefined;
    const key = typeof status === 'string' ? status : 'listed';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const detail = [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
  return `${facts.name}: ${plural(todos.length, 'item')}${detail === '' ? '' : ` (${detail})`}`;
}

function task(facts: DigestFacts): string {
  const { args } = facts;
  const label = stringArgument(args, 'description', 'goal', 'title', 'task', 'prompt') ?? '';
  const agent = stringArgument(args, 'subagent_type', 'agent', 'agent_type', 'name');
  let target = agent === undefined ? '' : `(${agent})`;
  if (label !== '') target = join(target, `'${truncateStart(oneLine(label), MAX_LABEL)}'`);
  const first = facts.failed ? '' : truncateStart(firstNonBlankLine(facts.text), MAX_FIRST_LINE);
  return `${join(facts.name, target)} → ${outcomeWord(facts)}${sizeText(facts)}${first === '' ? '' : `: ${first}`}`;
}

function generic(facts: DigestFacts): string {
  const status = facts.exit === undefined ? '' : `exit ${facts.exit}, `;
  return `${join(facts.name, salientText(facts.args))} → ${status}${outcomeWord(facts)}${sizeText(facts)}`;
}

/** The salient arguments of a call as `key=value` pairs. */
export function salientText(args: JsonObject | undefined): string {
  if (args === undefined) return '';
  return salientOf(args)
    .map((argument) =>
      argument.kind === 'command' ? `\`${argument.value}\`` : `${argument.key}=${argument.value}`,
    )
    .join(' ');
}

function join(name: string, detail: string): string {
  return detail === '' ? name : `${name} ${detail}`;
}

function outcomeWord(facts: DigestFacts): string {
  return facts.failed && facts.exit === undefined ? 'failed, ' : '';
}

/** `3,102 chars`, with images when there are any. */
function sizeText(facts: DigestFacts): string {
  if (facts.text.length === 0 && facts.images === 0) return 'no output';
  const chars = `${formatCount(facts.text.length)} chars`;
  return facts.images === 0 ? chars : `${chars}, ${plural(facts.images, 'image')}`;
}

function sizeNote(facts: DigestFacts): string {
  return facts.text.length === 0 && facts.images === 0 ? '' : ` (${sizeText(facts)})`;
}
