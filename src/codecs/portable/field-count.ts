import { isJsonObject, type JsonValue } from '../../model/json.js';

/** Counts named fields for a codec's `dialectFields`. */
export interface FieldCount {
  /** Counts `name` once (or `times`). */
  add(name: string, times?: number): void;
  /** Counts every key of `value` (when it is an object), each under `prefix` + key; `skip` keys are not counted. */
  addKeys(value: JsonValue | undefined, prefix?: string, skip?: readonly string[]): void;
  readonly counts: Readonly<Record<string, number>>;
}

/** A fresh {@link FieldCount}. */
export function fieldCount(): FieldCount {
  const counts: Record<string, number> = {};
  const add = (name: string, times = 1): void => {
    if (times > 0) counts[name] = (counts[name] ?? 0) + times;
  };
  return {
    add,
    addKeys(value, prefix = '', skip = []) {
      if (!isJsonObject(value)) return;
      for (const key of Object.keys(value)) if (!skip.includes(key)) add(`${prefix}${key}`);
    },
    counts,
  };
}
