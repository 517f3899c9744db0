import { callArgumentsOf } from '../../inspect/call-arguments.js';
import { positionAbove } from '../../model/arrays.js';
import { isLineTerminator, isSpace, isWordChar } from '../../model/characters.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ToolCallPart } from '../../model/part.js';
import type { ActionFact } from './describe-action.js';
import { clip } from './sentences.js';

/** Where one plan item stands. */
export type PlanStatus = 'done' | 'in progress' | 'pending';

/** One item of a plan or todo list written by the agent's plan tool. */
export interface PlanItem {
  readonly text: string;
  readonly status: PlanStatus;
}

/** A task tracker or version-control step that records the state of the work, verbatim. */
export interface TrackerStep {
  /** The command's first line (or the tool call rendered), exact. */
  readonly command: string;
  readonly failed: boolean;
  /** A commit's message, when the step was a commit. */
  readonly commit?: string;
  /** The task the step moved and where it put it, when the command says (`bd close X`, `gh issue close 12`). */
  readonly task?: { readonly id: string; readonly status: PlanStatus };
}

// Plan tools: Claude Code `TodoWrite` (`todos[{content,status,activeForm}]`), Hermes `todo` (`todos[{id,
// content,status}]`), Codex `update_plan` (`plan[{step,status}]`), and the same shapes under other names.
const LIST_KEYS = ['todos', 'plan', 'tasks', 'items', 'steps'];
const TEXT_KEYS = ['content', 'step', 'title', 'task', 'description', 'text', 'name'];
const DONE = /^(?:completed?|done|finished|closed|resolved|cancell?ed|skipped)$/i;
const ACTIVE = /^(?:in[_ -]?progress|active|doing|started|running|current)$/i;

/** The plan a plan-tool call writes, or undefined when its arguments hold no list of items. */
export function planOf(call: ToolCallPart): PlanItem[] | undefined {
  if (!/todo|plan|task/i.test(call.name)) return undefined;
  // Parsed once for every reader of the call (up to 64 KiB).
  const parsed = callArgumentsOf(call);
  if (!isJsonObject(parsed)) return undefined;
  for (const key of LIST_KEYS) {
    const list = parsed[key];
    if (!Array.isArray(list)) continue;
    const items = list.flatMap((entry) => planItem(entry));
    if (items.length > 0 || list.length === 0) return items;
  }
  return undefined;
}

function planItem(entry: JsonValue): PlanItem[] {
  if (typeof entry === 'string') return [{ text: entry, status: 'pending' }];
  if (!isJsonObject(entry)) return [];
  const text = firstString(entry, TEXT_KEYS);
  if (text === undefined) return [];
  const raw = entry['status'] ?? entry['state'];
  const done = entry['done'] === true || entry['completed'] === true;
  const status: PlanStatus =
    done || (typeof raw === 'string' && DONE.test(raw))
      ? 'done'
      : typeof raw === 'string' && ACTIVE.test(raw)
        ? 'in progress'
        : 'pending';
  return [{ text, status }];
}

function firstString(object: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = object[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

// Commands that move tasks: issue trackers (beads `bd`, GitHub `gh`, `glab`, `jira`, `linear`, `tea`) and the
// version-control steps that record finished work.
const TRACKER =
  /^\s*(?:bd\s+(?:create|update|close|reopen|done|start|claim|comment|dep|sync)\b|(?:gh|glab|tea)\s+(?:issue|pr|mr)\s+(?:create|close|comment|edit|merge|reopen|review)\b|(?:jira|linear)\s+\S+|git\s+(?:commit|merge|rebase|tag|push|checkout\s+-b|switch\s+-c)\b|hub\s+(?:pull-request|issue)\b)/;

/** The tracker and version-control steps among a run's actions, in order. */
export function trackerSteps(actions: readonly ActionFact[]): TrackerStep[] {
  const out: TrackerStep[] = [];
  for (const action of actions) {
    const command = action.fullCommand;
    if (command === undefined) continue;
    // The message is read from the whole command, so once for all of its commit lines.
    let message: { readonly text: string | undefined } | undefined;
    for (const line of commandLines(command)) {
      if (!TRACKER.test(line)) continue;
      let commit: string | undefined;
      if (/\bgit\s+commit\b/.test(line)) {
        message ??= { text: commitMessage(command) };
        commit = message.text;
      }
      const task = action.failed ? undefined : taskMove(line);
      out.push({
        command: clip(line, 240),
        failed: action.failed,
        ...(commit === undefined ? {} : { commit }),
        ...(task === undefined ? {} : { task }),
      });
    }
  }
  return out;
}

const TASK_MOVE =
  /^\s*(?:bd\s+(close|done|update|start|claim|reopen)|(?:gh|glab|tea)\s+(?:issue|pr|mr)\s+(close|reopen|merge))\s+([\w.#-]+)/;

/** Which task a tracker command moves, and to which state. */
function taskMove(line: string): { id: string; status: PlanStatus } | undefined {
  const match = TASK_MOVE.exec(line);
  if (match === null) return undefined;
  const verb = match[1] ?? match[2] ?? '';
  const id = match[3] as string;
  if (/^(?:close|done|merge)$/.test(verb)) return { id, status: 'done' };
  if (verb === 'reopen') return { id, status: 'pending' };
  if (verb === 'start' || verb === 'claim') return { id, status: 'in progress' };
  const status = /--status[= ]+["']?([\w-]+)/.exec(line)?.[1];
  if (status === undefined) return undefined;
  if (ACTIVE.test(status)) return { id, status: 'in progress' };
  if (DONE.test(status)) return { id, status: 'done' };
  return { id, status: 'pending' };
}

/** Where each tracked task stands after the steps, in order of first mention. */
export function trackedTasks(steps: readonly TrackerStep[]): { id: string; status: PlanStatus }[] {
  const tasks = new Map<string, PlanStatus>();
  for (const step of steps) if (step.task !== undefined) tasks.set(step.task.id, step.task.status);
  return [...tasks].map(([id, status]) => ({ id, status }));
}

/** The separate commands of a shell script: `a && b; c` gives three; separators inside quotes do not count. */
function commandLines(command: string): string[] {
  const out: string[] = [];
  let quote: string | undefined;
  let start = 0;
  const cut = (end: number, skip: number) => {
    const piece = command.slice(start, end).trim();
    if (piece !== '') out.push(piece);
    start = end + skip;
  };
  for (let at = 0; at < command.length; at++) {
    const char = command[at] as string;
    if (quote !== undefined) {
      if (char === '\\' && quote === '"') at++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '\n' || char === ';') cut(at, 1);
    else if ((char === '&' || char === '|') && command[at + 1] === char) {
      cut(at, 2);
      at++;
    }
  }
  cut(command.length, 0);
  return out;
}

const COMMIT_WORDS = /\bgit\s+commit\b/g;
/** An inline commit message: its text between the quotes, and which quotes. */
export interface InlineMessage {
  readonly text: string;
  readonly quote: '"' | "'";
}

/**
 * What `/\bgit\s+commit\b[^\n]*?-m\s+(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/` finds, by a scan in linear time: that
 * regex read the rest of the line again from every `git commit` on it (quadratic), and its quoted part overflowed
 * V8's backtracking stack on a message of a few megabytes. A `git commit` whose line holds no message rules out
 * every later one that ends on the same line: their `-m` are among the ones already tried. A double-quoted message
 * that does not close cannot hold a later `-m "` (that quote would have closed it), and once a single-quoted one
 * finds no closing quote no later one can, so no text is read twice.
 */
export function inlineCommitMessage(command: string): InlineMessage | undefined {
  let failedUntil = -1;
  let singleCanClose = true;
  for (const words of command.matchAll(COMMIT_WORDS)) {
    const end = words.index + words[0].length;
    if (end <= failedUntil) continue;
    const newline = command.indexOf('\n', end);
    const lineEnd = newline === -1 ? command.length : newline;
    for (
      let flag = command.indexOf('-m', end);
      flag !== -1 && flag < lineEnd;
      flag = command.indexOf('-m', flag + 1)
    ) {
      let at = flag + 2;
      if (!isSpace(command.charCodeAt(at))) continue;
      while (isSpace(command.charCodeAt(at))) at++;
      const quote = command[at];
      if (quote === '"') {
        const close = closingDoubleQuote(command, at + 1);
        if (close !== -1) return { text: command.slice(at + 1, close), quote };
      } else if (quote === "'" && singleCanClose) {
        const close = command.indexOf("'", at + 1);
        if (close !== -1) return { text: command.slice(at + 1, close), quote };
        singleCanClose = false;
      }
    }
    failedUntil = lineEnd;
  }
  return undefined;
}

/**
 * The closing `"` of a double-quoted message starting at `from`, or -1: a backslash escapes the next character
 * unless that is a line terminator (the regex's `\\.`), where the message fails, as at the end of the text.
 */
function closingDoubleQuote(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === 0x22) return at;
    if (code === 0x5c) {
      if (at + 1 >= text.length || isLineTerminator(text.charCodeAt(at + 1))) return -1;
      at += 2;
    } else at++;
  }
  return -1;
}

/** The first line of a commit message given with `-m "…"`, `-m '…'` or a heredoc. */
function commitMessage(command: string): string | undefined {
  const inline = inlineCommitMessage(command)?.text;
  if (inline !== undefined && !inline.startsWith('$(')) return firstMessageLine(inline);
  const heredoc = heredocBody(command);
  if (heredoc !== undefined) return firstMessageLine(heredoc);
  return undefined;
}

const HEREDOC_HEADER = /<<\s*'?"?(\w+)'?"?/y;

/**
 * The body of the first heredoc, exactly as `/<<\s*'?"?(\w+)'?"?\s*\n([\s\S]*?)\n\s*\1\b/` captures it, in
 * linear time: that regex searched to the end of the command for every `<<` without its terminator (quadratic,
 * cubic on runs of line breaks), and a heredoc of code holds many `<<`. Terminator lines are indexed once by
 * their word.
 */
export function heredocBody(command: string): string | undefined {
  let terminators: Map<string, number[]> | undefined;
  for (let at = command.indexOf('<<'); at !== -1; at = command.indexOf('<<', at + 1)) {
    HEREDOC_HEADER.lastIndex = at;
    const header = HEREDOC_HEADER.exec(command);
    if (header === null) continue;
    const word = header[1] as string;
    // `\s*\n` ends at the last line break of the white space after the word, or gives back to the one before it.
    let last = -1;
    let previous = -1;
    let runEnd = HEREDOC_HEADER.lastIndex;
    for (; runEnd < command.length && isSpace(command.charCodeAt(runEnd)); runEnd++) {
      if (command.charCodeAt(runEnd) === 0x0a) {
        previous = last;
        last = runEnd;
      }
    }
    if (last === -1) continue;
    terminators ??= terminatorLines(command);
    const lines = terminators.get(word);
    const end = lines === undefined ? undefined : lines[positionAbove(lines, last)];
    if (end !== undefined) return command.slice(last + 1, end);
    if (previous !== -1 && wordAt(command, runEnd) === word) return command.slice(previous + 1, last);
  }
  return undefined;
}

/** Each line break, under the word that follows it and the white space after it (`\n\s*(\w+)\b`), in order. */
function terminatorLines(command: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  let runEnd = 0;
  for (let at = command.indexOf('\n'); at !== -1; at = command.indexOf('\n', at + 1)) {
    // Line breaks in one run of white space share its end.
    if (at >= runEnd) {
      runEnd = at + 1;
      while (runEnd < command.length && isSpace(command.charCodeAt(runEnd))) runEnd++;
    }
    const word = wordAt(command, runEnd);
    if (word === '') continue;
    const list = out.get(word);
    if (list === undefined) out.set(word, [at]);
    else list.push(at);
  }
  return out;
}

/** The run of word characters that starts at `at`. */
function wordAt(text: string, at: number): string {
  let end = at;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
  return text.slice(at, end);
}

function firstMessageLine(message: string): string | undefined {
  const line = message
    .replace(/\\n/g, '\n')
    .split('\n')
    .map((piece) => piece.trim())
    .find((piece) => piece !== '');
  return line === undefined ? undefined : clip(line, 200);
}
