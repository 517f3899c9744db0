import { parseNestedJson } from '../codecs/json-depth.js';
import type { JsonValue } from '../model/json.js';
import type { Message } from '../model/message.js';
import type { ToolCallPart } from '../model/part.js';
import { isUrl, looksLikePath } from './artifact-shapes.js';
import { mapMessages, mapParts } from './rewrite.js';
import { formatCount } from './text-facts.js';

/** Options of {@link shrinkToolArguments}. */
export interface ShrinkToolArgumentsOptions {
  /** Only messages at indices below this are changed: the protected tail starts here. */
  readonly before: number;
  /**
   * Arguments at most this long (as JSON text) are left alone.
   * @default 500
   */
  readonly maxArgumentChars?: number;
  /**
   * String values longer than this are cut to this length, with a marker saying how much was removed.
   * @default 200
   */
  readonly maxLeafChars?: number;
  /**
   * Commands, paths and URLs are kept whole up to this length (they are what an agent needs verbatim later);
   * longer ones are cut to it.
   * @default 1000
   */
  readonly maxLocationChars?: number;
}

/** Result of {@link shrinkToolArguments}. */
export interface ShrinkToolArgumentsResult {
  /** The input array itself when nothing was shrunk. */
  readonly messages: readonly Message[];
  /** Tool calls whose arguments were shortened. */
  readonly shrunk: number;
}

const LOCATION_KEY =
  /^(?:command|cmd|commands|script|shell_command|path|paths|file|files|file_?path|filepath|file_?name|notebook_path|dir|directory|cwd|workdir|url|urls|uri|href|link|links)$/i;

/**
 * Shortens long string values inside the arguments of old tool calls (file content being written, long
 * prompts) while the arguments stay valid JSON: the text is parsed, string leaves are cut, and the value is
 * serialised again, never sliced as bytes. Arguments that are not JSON, or whose numbers JSON cannot carry
 * exactly, are left alone. Commands, paths and URLs stay whole unless they are huge.
 */
export function shrinkToolArguments(
  messages: readonly Message[],
  options: ShrinkToolArgumentsOptions,
): ShrinkToolArgumentsResult {
  const limits = argumentLimits(options);
  let shrunk = 0;
  const out = mapMessages(messages, (message, index) => {
    if (index >= options.before) return message;
    const done = shrinkMessage(message, limits);
    shrunk += done.shrunk;
    return done.message;
  });
  return { messages: out, shrunk };
}

/** The limits of {@link shrinkToolArguments}, defaults filled in. */
export type ArgumentLimits = Required<Omit<ShrinkToolArgumentsOptions, 'before'>>;

/** {@link ShrinkToolArgumentsOptions}' limits with their defaults. */
export function argumentLimits(options: Omit<ShrinkToolArgumentsOptions, 'before'>): ArgumentLimits {
  return {
    maxArgumentChars: options.maxArgumentChars ?? 500,
    maxLeafChars: options.maxLeafChars ?? 200,
    maxLocationChars: options.maxLocationChars ?? 1000,
  };
}

/** One message of {@link shrinkToolArguments}: the long arguments of its tool calls shortened. */
export function shrinkMessage(
  message: Message,
  limits: ArgumentLimits,
): { readonly message: Message; readonly shrunk: number } {
  let shrunk = 0;
  const out = mapParts(message, (part) => {
    if (part.type !== 'tool-call' || part.arguments.length <= limits.maxArgumentChars) return part;
    const shorter = shrinkArguments(part.arguments, limits.maxLeafChars, limits.maxLocationChars);
    if (shorter === undefined) return part;
    shrunk++;
    const next: ToolCallPart = { ...part, arguments: shorter };
    return next;
  });
  return { message: out, shrunk };
}

/** The arguments with long leaves cut, or undefined when nothing could be made shorter. */
export function shrinkArguments(text: string, maxLeaf: number, maxLocation: number): string | undefined {
  let value: JsonValue;
  try {
    value = parseNestedJson(text) as JsonValue;
  } catch {
    return undefined;
  }
  if (!carriesExactly(value)) return undefined;
  let changed = false;
  const visit = (node: JsonValue, key: string | undefined): JsonValue => {
    if (typeof node === 'string') {
      const location = (key !== undefined && LOCATION_KEY.test(key)) || isUrl(node) || looksLikePath(node);
      const limit = location ? Math.max(maxLocation, maxLeaf) : maxLeaf;
      if (node.length <= limit || alreadyCut(node, limit)) return node;
      changed = true;
      return cutLeaf(node, limit);
    }
    if (Array.isArray(node)) return node.map((item) => visit(item, key));
    if (node !== null && typeof node === 'object') {
      // fromEntries defines own properties, so a `__proto__` key stays a plain key.
      return Object.fromEntries(
        Object.entries(node).map(([name, item]) => [name, item === undefined ? item : visit(item, name)]),
      ) as JsonValue;
    }
    return node;
  };
  const shrunk = visit(value, undefined);
  if (!changed) return undefined;
  const serialised = JSON.stringify(shrunk);
  return serialised.length < text.length ? serialised : undefined;
}

const CUT_MARKER = /…\[[\d,]+ chars truncated\]$/;

/** True for a value this transform already cut to `limit`: cutting again would only lose the marker's count. */
function alreadyCut(value: string, limit: number): boolean {
  const marker = CUT_MARKER.exec(value);
  return marker !== null && marker.index <= limit;
}

function cutLeaf(value: string, limit: number): string {
  let end = limit;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${value.slice(0, end)}…[${formatCount(value.length - end)} chars truncated]`;
}

/** False when re-serialising would change a number (integers beyond 2^53 lose digits through JSON.parse). */
function carriesExactly(value: JsonValue): boolean {
  if (typeof value === 'number') {
    return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value));
  }
  if (Array.isArray(value)) return value.every(carriesExactly);
  if (value !== null && typeof value === 'object') {
    return Object.values(value).every((item) => item === undefined || carriesExactly(item));
  }
  return true;
}
