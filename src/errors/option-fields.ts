import * as z from 'zod';

/*
 * The vocabulary of options schemas. Each field gives every failure (wrong type, not whole, out of range) one
 * message saying what a valid value is, which `parseOptions` turns into `<key> must be <that>, got <value>`.
 */

/** A whole number ≥ `minimum`. */
export function integerAtLeast(
  minimum: number,
  expects = minimum === 1 ? 'a positive integer' : `an integer ≥ ${minimum}`,
) {
  return z.int({ error: expects }).min(minimum, { error: expects });
}

/** A number ≥ `minimum`, not necessarily whole. */
export function numberAtLeast(minimum: number, expects = `a number ≥ ${minimum}`) {
  return z.number({ error: expects }).min(minimum, { error: expects });
}

/** A number in [minimum, maximum]. */
export function numberIn(minimum: number, maximum: number, expects = `a number in [${minimum}, ${maximum}]`) {
  return z.number({ error: expects }).min(minimum, { error: expects }).max(maximum, { error: expects });
}

/** A string that is not empty. */
export function text(expects = 'a non-empty string') {
  return z.string({ error: expects }).min(1, { error: expects });
}

/** A share in (0, 1]. */
export function share(expects = 'in (0, 1]') {
  return z.number({ error: expects }).gt(0, { error: expects }).lte(1, { error: expects });
}

/** One of a few strings. */
export function oneOf<const Values extends readonly [string, ...string[]]>(
  values: Values,
  expects = values.map((value) => `"${value}"`).join(' or '),
) {
  return z.enum(values, { error: expects });
}

/** `true` or `false`. */
export function flag() {
  return z.boolean({ error: 'true or false' });
}

/** A value the schema does not check (functions, counters, summarizers): its own code does. */
export function unchecked<T>() {
  return z.custom<T>();
}
