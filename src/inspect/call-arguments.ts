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
 * {@link parseJsonArguments} of a call's arguments, once per call object: a pass reads the same calls when it
 * digests their outputs, collects their artifacts and writes the action log. The value is shared between
 * callers, which only read it (the JSON types are read-only).
 */
export const callArgumentsOf = memoByObject((call: ToolCallPart): JsonValue | undefined =>
  parseJsonArguments(call.arguments),
);

/** {@link callArgumentsOf} when the arguments are a JSON object, else undefined. */
export function callArgumentObjectOf(call: ToolCallPart): JsonObject | undefined {
  const value = callArgumentsOf(call);
  return isJsonObject(value) ? value : undefined;
}
