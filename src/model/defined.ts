/**
 * The object without its `undefined` members: with `exactOptionalPropertyTypes`, an optional option may be left
 * out but not set to `undefined`.
 */
export function defined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
