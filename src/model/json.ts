/** A value that survives `JSON.stringify` → `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonArray | JsonObject;
/** A JSON array. */
export type JsonArray = readonly JsonValue[];
/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue | undefined;
}

/** True when `value` is a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a string, else `undefined`: for reading optional string fields of untyped records. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
