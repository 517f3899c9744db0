/**
 * `compute`, answered once per key object: for questions several passes ask about the same immutable message or
 * part. Entries go with their keys (a `WeakMap`); an `undefined` answer is remembered too.
 */
export function memoByObject<Key extends object, Value>(compute: (key: Key) => Value): (key: Key) => Value {
  const answers = new WeakMap<Key, { readonly value: Value }>();
  return (key) => {
    const known = answers.get(key);
    if (known !== undefined) return known.value;
    const value = compute(key);
    answers.set(key, { value });
    return value;
  };
}
