import { callArgumentObjectOf } from '../inspect/call-arguments.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import { toolResultText } from '../model/message-helpers.js';
import type { ToolCallPart, ToolResultPart } from '../model/part.js';
import { isUrl, looksLikePath, pathsIn, urlsIn } from './artifact-shapes.js';
import { DIGEST_PREFIX } from './condensed-markers.js';
import { describeCall } from './digest-kinds.js';
import { clearErrorLine, exitStatus, failureLines } from './output-facts.js';
import { truncateStart } from './text-facts.js';

import { type ToolKind, toolKindOf } from './tool-kind.js';

const MAX_ERROR_LINE = 300;
// File text being written: its contents are data, not locations the session used.
const WRITTEN_TEXT =
  /^(?:content|contents|new_string|old_string|new_str|old_str|file_text|text|code|patch|diff|body|new_source)$/i;
const MAX_MENTIONS = 10;
// Outputs of these kinds are file or listing content: words like "Error" in them are not failures.
const CONTENT_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search', 'glob']);

/**
 * One informative line that stands in for a tool output: `[output condensed]`, the tool name, what it was
 * called on (command, path, pattern, URL, query… verbatim; only very long commands are cut, keeping their
 * start), and what came back (exit status, lines, matches, size). A failed output keeps its first line and its
 * first and last error lines verbatim. Paths and URLs named anywhere in the arguments (file content aside) are
 * listed after `mentions:` when the line does not already show them, so none is lost with the output.
 *
 * `call` is the call the result answers; without it the digest still says which tool and how much output.
 */
export function digestToolResult(call: ToolCallPart | undefined, result: ToolResultPart): string {
  const args = call === undefined ? undefined : callArgumentObjectOf(call);
  const name = call?.name ?? result.name ?? 'tool';
  const kind: ToolKind = call === undefined ? 'unknown' : toolKindOf(call.name, args);
  const text = toolResultText(result.content);
  const exit = kind === 'shell' || kind === 'unknown' ? exitStatus(text) : undefined;
  const failed = result.isError === true || (exit !== undefined && exit !== 0);
  const images = result.content.filter((part) => part.type === 'image').length;
  let line = `${DIGEST_PREFIX} ${describeCall(kind, { name, args, text, images, exit, failed })}`;
  const errors = failed ? failureLines(text) : CONTENT_KINDS.has(kind) ? [] : optional(clearErrorLine(text));
  if (errors.length > 0) {
    line += `; error: ${errors.map((error) => truncateStart(error, MAX_ERROR_LINE)).join(' | ')}`;
  }
  const mentions = argumentLocations(args).filter((location) => !line.includes(location));
  if (mentions.length > 0) {
    const shown = mentions.slice(0, MAX_MENTIONS);
    const more = mentions.length - shown.length;
    line += `; mentions: ${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
  }
  return line;
}

function optional(value: string | undefined): string[] {
  return value === undefined ? [] : [value];
}

/**
 * Every path and URL in a call's arguments, file content being written aside: whole values that are paths or
 * URLs, and the ones written inside commands, prompts and descriptions. First-seen order, no repeats.
 */
export function argumentLocations(args: JsonObject | undefined): string[] {
  const found = new Set<string>();
  if (args !== undefined) collect(args, found, 0);
  return [...found];
}

function collect(value: JsonValue | undefined, found: Set<string>, depth: number): void {
  if (value === undefined || value === null || depth > 6) return;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (!/[\r\n]/.test(trimmed) && (isUrl(trimmed) || looksLikePath(trimmed))) {
      found.add(trimmed);
      return;
    }
    for (const url of urlsIn(value)) found.add(url);
    for (const path of pathsIn(value)) found.add(path);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!WRITTEN_TEXT.test(key)) collect(item, found, depth + 1);
    }
  }
}
