import type { JsonValue } from '../model/json.js';
import { memoByObject } from '../model/memo-by-object.js';
import type { Message } from '../model/message.js';
import type { Part, TextPart, ToolCallPart, ToolResultPart } from '../model/part.js';
import {
  EXTENSION,
  findErrorLines,
  findPaths,
  findUrls,
  firstLine,
  isPlausiblePath,
} from './artifact-patterns.js';
import { callArgumentsOf } from './call-arguments.js';

/** The exact strings an agent needs after compaction, by kind. Sets keep first-seen order. */
export interface Artifacts {
  /** File-system paths from tool arguments and from text (`src/a.ts`, `/etc/hosts`, `./run.sh`, `C:\x\y`). */
  readonly paths: ReadonlySet<string>;
  /** URLs, trailing punctuation removed, cut to 200 characters. */
  readonly urls: ReadonlySet<string>;
  /** Shell commands from tool arguments: the first line, trimmed, cut to 200 characters. */
  readonly commands: ReadonlySet<string>;
  /** Error lines from tool results and user text, trimmed, cut to 200 characters. */
  readonly errorLines: ReadonlySet<string>;
  /** Names of the tools called (or answered). */
  readonly toolNames: ReadonlySet<string>;
}

/** The artifact kinds, in the order reports list them. */
export const ARTIFACT_KINDS = ['paths', 'urls', 'commands', 'errorLines', 'toolNames'] as const;

/** One artifact kind. */
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

const PATH_KEYS = new Set([
  'path',
  'paths',
  'file',
  'files',
  'file_path',
  'filepath',
  'filename',
  'file_name',
  'notebook_path',
  'dir',
  'directory',
  'cwd',
  'workdir',
  'working_directory',
  'target_file',
  'source',
  'destination',
  'dest',
  'input_path',
  'output_path',
  'old_path',
  'new_path',
  'root',
  'folder',
]);
const URL_KEYS = new Set(['url', 'uri', 'href', 'link', 'endpoint', 'base_url']);
const COMMAND_KEYS = new Set(['command', 'cmd', 'script', 'shell_command']);
// Content being written is file text, not a record of what the session did; its imports are not artifacts.
const CONTENT_KEYS = new Set([
  'content',
  'contents',
  'new_string',
  'old_string',
  'new_str',
  'old_str',
  'file_text',
  'text',
  'code',
  'patch',
  'diff',
  'body',
  'new_source',
]);
// Sub-commands of editor tools (`str_replace_editor command=view`) are verbs, not shell commands.
const EDITOR_VERBS = /^(?:view|create|str_replace|insert|undo_edit|write|read|edit|delete|append)$/;
const HAS_LETTER = /[A-Za-z]/;

/** Kind indices of {@link Found}, in {@link ARTIFACT_KINDS} order. */
const PATHS = 0;
const URLS = 1;
const COMMANDS = 2;
const ERROR_LINES = 3;
const TOOL_NAMES = 4;

/** What one part yields, in the order found (repeats included): `kinds[i]` is the kind of `values[i]`. */
interface Found {
  readonly kinds: number[];
  readonly values: string[];
}

class Collector implements Found {
  readonly kinds: number[] = [];
  readonly values: string[] = [];

  add(kind: number, value: string): void {
    this.kinds.push(kind);
    this.values.push(value);
  }
}

const NOTHING: Found = { kinds: [], values: [] };
// What each part yields, by part object (parts are immutable): a pass scans the same outputs when it digests
// them and when it summarizes them, and the rules engine again at every build and stricter setting.
const foundInCalls = new WeakMap<Part, Found>();
const foundInUserText = new WeakMap<Part, Found>();
const foundInOtherText = new WeakMap<Part, Found>();
/**
 * Parts with less text than this are scanned again when asked again: a `WeakMap` entry (hashing the key, growing
 * the table, the collector's work on it) costs more than scanning them, and most parts are that short.
 */
const REMEMBERED_CHARS = 1024;

function foundIn(part: Part, user: boolean): Found | undefined {
  if (part.type === 'image' || part.type === 'reasoning' || part.type === 'opaque') return undefined;
  if (charsOf(part) < REMEMBERED_CHARS) return scanPart(part, user);
  const cache = part.type === 'text' ? (user ? foundInUserText : foundInOtherText) : foundInCalls;
  const cached = cache.get(part);
  if (cached !== undefined) return cached;
  const found = scanPart(part, user);
  cache.set(part, found);
  return found;
}

/** How many characters a part's scan reads: its text, its arguments, or its result's text contents. */
function charsOf(part: TextPart | ToolCallPart | ToolResultPart): number {
  if (part.type === 'text') return part.text.length;
  if (part.type === 'tool-call') return part.arguments.length;
  let chars = 0;
  for (const content of part.content) if (content.type === 'text') chars += content.text.length;
  return chars;
}

function scanPart(part: TextPart | ToolCallPart | ToolResultPart, user: boolean): Found {
  const out = new Collector();
  if (part.type === 'text') scanText(part.text, out, user ? part : undefined);
  else if (part.type === 'tool-call') collectCall(part, out);
  else collectResult(part, out);
  return out.values.length === 0 ? NOTHING : out;
}

/**
 * Extracts the artifacts of a span of messages: paths, URLs, commands, error lines and tool names, as exact
 * strings. This is the shared definition the extractive summarizer keeps and the evaluation measures (an
 * artifact counts as kept when the string occurs in the output text). Sources: tool-call arguments (keyed
 * values and path- or URL-looking strings; file contents being written are skipped), tool-result text (paths,
 * URLs, error lines; the first line of a failed result), user text (paths, URLs, error lines) and assistant
 * text (paths, URLs). System messages and reasoning are not sources. Each part is scanned once per process.
 */
export function extractArtifacts(messages: readonly Message[]): Artifacts {
  const sets = [
    new Set<string>(),
    new Set<string>(),
    new Set<string>(),
    new Set<string>(),
    new Set<string>(),
  ];
  for (const message of messages) {
    if (message.role === 'system') continue;
    for (const part of message.parts) {
      const found = foundIn(part, message.role === 'user');
      if (found === undefined) continue;
      for (let index = 0; index < found.values.length; index++) {
        (sets[found.kinds[index] as number] as Set<string>).add(found.values[index] as string);
      }
    }
  }
  const [paths, urls, commands, errorLines, toolNames] = sets as [
    Set<string>,
    Set<string>,
    Set<string>,
    Set<string>,
    Set<string>,
  ];
  return { paths, urls, commands, errorLines, toolNames };
}

/** Scans a text for URLs and paths, and for error lines when it is the text of `errorsOf`. */
function scanText(text: string, out: Collector, errorsOf?: TextPart): void {
  for (const url of findUrls(text)) out.add(URLS, url);
  for (const path of findPaths(text)) out.add(PATHS, path);
  if (errorsOf !== undefined) for (const line of errorLinesOf(errorsOf)) out.add(ERROR_LINES, line);
}

// The artifacts of an output and the action log's outcome both want its error lines: found once per part.
const rememberedErrorLines = memoByObject((part: TextPart): readonly string[] => findErrorLines(part.text));
/** Texts shorter than this are scanned for error lines again when asked again: cheaper than remembering. */
const REMEMBERED_ERROR_CHARS = 256;

function errorLinesOf(part: TextPart): readonly string[] {
  return part.text.length < REMEMBERED_ERROR_CHARS ? findErrorLines(part.text) : rememberedErrorLines(part);
}

/**
 * The error lines of a tool result's text, in order and each once: what `findErrorLines` finds in its text
 * contents joined by line breaks (no error line spans two contents), from the per-part answers the artifact
 * scan already has. A new array the caller may change.
 */
export function resultErrorLines(result: ToolResultPart): string[] {
  const lists: (readonly string[])[] = [];
  for (const content of result.content) if (content.type === 'text') lists.push(errorLinesOf(content));
  if (lists.length <= 1) return [...(lists[0] ?? [])];
  return [...new Set(lists.flat())];
}

function collectResult(part: ToolResultPart, out: Collector): void {
  if (part.name !== undefined && part.name !== '') out.add(TOOL_NAMES, part.name);
  let first = true;
  for (const content of part.content) {
    if (content.type !== 'text') continue;
    if (part.isError === true && first) {
      const line = firstLine(content.text);
      if (line !== '') out.add(ERROR_LINES, line);
      first = false;
    }
    scanText(content.text, out, content);
  }
}

function collectCall(part: ToolCallPart, out: Collector): void {
  if (part.name !== '') out.add(TOOL_NAMES, part.name);
  const parsed = callArgumentsOf(part);
  if (parsed === undefined) {
    scanText(part.arguments, out);
    return;
  }
  walkArguments(parsed, undefined, out);
}

function walkArguments(value: JsonValue | undefined, key: string | undefined, out: Collector): void {
  if (typeof value === 'string') {
    collectLeaf(value, key, out);
  } else if (Array.isArray(value)) {
    if (key !== undefined && COMMAND_KEYS.has(key) && value.every((item) => typeof item === 'string')) {
      const longest = [...(value as string[])].sort((a, b) => b.length - a.length)[0];
      if (longest !== undefined) addCommand(longest, out);
      return;
    }
    for (const item of value) walkArguments(item, key, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) walkArguments(item, name.toLowerCase(), out);
  }
}

function collectLeaf(value: string, key: string | undefined, out: Collector): void {
  const trimmed = value.trim();
  if (trimmed === '') return;
  if (key !== undefined && COMMAND_KEYS.has(key)) {
    addCommand(trimmed, out);
    for (const url of findUrls(trimmed)) out.add(URLS, url);
    for (const path of findPaths(trimmed)) out.add(PATHS, path);
    return;
  }
  if (key !== undefined && CONTENT_KEYS.has(key)) return;
  const singleLine = !/[\r\n]/.test(trimmed);
  if (key !== undefined && PATH_KEYS.has(key) && singleLine && isKeyedPath(trimmed)) {
    out.add(PATHS, trimmed);
    return;
  }
  if (key !== undefined && URL_KEYS.has(key)) {
    for (const url of findUrls(trimmed)) out.add(URLS, url);
    return;
  }
  if (singleLine && isPlausiblePath(trimmed)) {
    out.add(PATHS, trimmed);
    return;
  }
  scanText(trimmed, out);
}

function isKeyedPath(value: string): boolean {
  if (value.length > 300 || !HAS_LETTER.test(value) || value.includes('://')) return false;
  return value.includes('/') || value.includes('\\') || EXTENSION.test(value);
}

function addCommand(command: string, out: Collector): void {
  const line = firstLine(command);
  if (line === '' || EDITOR_VERBS.test(line)) return;
  out.add(COMMANDS, line);
}

/**
 * The text an artifact is looked up in: every text part, tool-call names with their raw arguments and the
 * decoded string values of those arguments (so a command with quotes matches), and tool-result text. System
 * messages are included; reasoning and image payloads are not.
 */
export function searchableText(messages: readonly Message[]): string {
  const chunks: string[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'text') chunks.push(part.text);
      else if (part.type === 'tool-call') {
        chunks.push(`${part.name} ${part.arguments}`);
        const parsed = callArgumentsOf(part);
        if (parsed !== undefined) collectStrings(parsed, chunks);
      } else if (part.type === 'tool-result') {
        if (part.name !== undefined) chunks.push(part.name);
        for (const content of part.content) if (content.type === 'text') chunks.push(content.text);
      }
    }
  }
  return chunks.join('\n');
}

function collectStrings(value: JsonValue, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) if (item !== undefined) collectStrings(item, out);
  }
}

/** How many artifacts of one kind occur in a text, and which do not. */
export interface KindCoverage {
  readonly total: number;
  readonly present: number;
  readonly missing: readonly string[];
}

/** Artifact retention of a text: per kind and pooled (`ratio` is 1 when there is nothing to keep). */
export interface ArtifactCoverage {
  readonly byKind: Readonly<Record<ArtifactKind, KindCoverage>>;
  readonly total: number;
  readonly present: number;
  readonly ratio: number;
}

/** Checks which artifacts still occur (as exact substrings) in `text`. */
export function artifactCoverage(artifacts: Artifacts, text: string): ArtifactCoverage {
  let total = 0;
  let present = 0;
  const byKind = {} as Record<ArtifactKind, KindCoverage>;
  for (const kind of ARTIFACT_KINDS) {
    const missing: string[] = [];
    for (const artifact of artifacts[kind]) if (!text.includes(artifact)) missing.push(artifact);
    const size = artifacts[kind].size;
    byKind[kind] = { total: size, present: size - missing.length, missing };
    total += size;
    present += size - missing.length;
  }
  return { byKind, total, present, ratio: total === 0 ? 1 : present / total };
}

/** Every artifact, in kind order, without duplicates across kinds. */
export function allArtifacts(artifacts: Artifacts): string[] {
  const seen = new Set<string>();
  for (const kind of ARTIFACT_KINDS) for (const artifact of artifacts[kind]) seen.add(artifact);
  return [...seen];
}
