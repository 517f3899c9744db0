import { parseJsonArguments } from '../inspect/call-arguments.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json.js';

/** The arguments of a tool call as a JSON object, or undefined when they are not a JSON object. */
export function parseToolArguments(text: string): JsonObject | undefined {
  const value = parseJsonArguments(text);
  return isJsonObject(value) ? value : undefined;
}

/** The first of `keys` whose value is a non-blank string. */
export function stringArgument(args: JsonObject | undefined, ...keys: string[]): string | undefined {
  if (args === undefined) return undefined;
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** The first of `keys` whose value is a finite number (or a string holding one). */
export function numberArgument(args: JsonObject | undefined, ...keys: string[]): number | undefined {
  if (args === undefined) return undefined;
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  }
  return undefined;
}

/** The first of `keys` whose value is an array. */
export function arrayArgument(
  args: JsonObject | undefined,
  ...keys: string[]
): readonly JsonValue[] | undefined {
  if (args === undefined) return undefined;
  for (const key of keys) {
    const value = args[key];
    if (Array.isArray(value)) return value as readonly JsonValue[];
  }
  return undefined;
}
