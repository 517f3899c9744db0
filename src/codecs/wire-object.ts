import type { JsonObject, JsonValue } from '../model/json.js';

/** A parsed JSON object from the wire (keys not yet known). */
export type WireObject = Readonly<Record<string, unknown>>;

/** True when `value` is a plain object (not an array, not null). */
export function isWireObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value as JSON. Everything a codec decodes came from `JSON.parse`, so this is a type-level statement, not a
 * conversion.
 */
export function asJson(value: unknown): JsonValue {
  return value as JsonValue;
}

/** The keys of `object` other than `consumed`, or `undefined` when there are none (so meta stays small). */
export function extraKeys(object: WireObject, consumed: readonly string[]): JsonObject | undefined {
  const entries = Object.entries(object).filter(([key]) => !consumed.includes(key));
  // fromEntries defines own properties, so a wire key named "__proto__" stays a plain key.
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as JsonObject);
}

/** A string field of an object, or `undefined`. */
export function stringField(object: WireObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

/** Structural equality of JSON-like values (object key order ignored, `undefined` members ignored). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  }
  const a = definedEntries(left as Record<string, unknown>);
  const b = definedEntries(right as Record<string, unknown>);
  if (a.length !== b.length) return false;
  const other = right as Record<string, unknown>;
  return a.every(([key, value]) => Object.hasOwn(other, key) && jsonEqual(value, other[key]));
}

function definedEntries(object: Record<string, unknown>): [string, unknown][] {
  return Object.entries(object).filter(([, value]) => value !== undefined);
}
