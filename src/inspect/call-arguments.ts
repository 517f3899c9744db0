import { parseNestedJson } from '../codecs/json-depth.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json.js';
import { memoByObject } from '../model/memo-by-object.js';
import type { ToolCallPart } from '../model/part.js';

/** Arguments text parsed as JSON, or undefined when it is blank or not JSON (or nests too deep to read). */
export function parseJsonArguments(text: string): JsonValue | undefined {
  if (text.trim() === '') return undefined;
  try {
    return parseNestedJson(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * Longest arguments text whose parsed value is remembered. Bigger arguments are mostly file contents being
 * written: keeping their parsed copy for as long as the call lives would double what they hold in memory, and
 * parsing them again costs little next to reading them at all.
 */
const REMEMBERED_ARGUMENTS_CHARS = 65_536;

const rememberedArguments = memoByObject((call: ToolCallPart): JsonValue | undefined =>
  parseJsonArguments(call.arguments),
);

/**
 * {@link parseJsonArguments} of a call's arguments, once per call object for arguments up to 64 KiB: a pass
 * reads the same calls when it digests their outputs, collects their artifacts and writes the action log. The
 * value is shared between callers, which only read it (the JSON types are read-only).
 */
export function callArgumentsOf(call: ToolCallPart): JsonValue | undefined {
  return call.arguments.length <= REMEMBERED_ARGUMENTS_CHARS
    ? rememberedArguments(call)
    : parseJsonArguments(call.arguments);
}

/** {@link callArgumentsOf} when the arguments are a JSON object, else undefined. */
export function callArgumentObjectOf(call: ToolCallPart): JsonObject | undefined {
  const value = callArgumentsOf(call);
  return isJsonObject(value) ? value : undefined;
}
