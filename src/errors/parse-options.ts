import type * as z from 'zod';
import { closestKey } from './closest-key.js';
import { CondenseError, type ErrorLocation } from './condense-error.js';

/** How the options being checked are named in error messages. */
export interface OptionsSource {
  /** What one key is called: `compressor option`, `trajectory setting`, `key`. */
  readonly noun: string;
  /** What the whole value is called when it is wrong as a whole. @default 'the options' */
  readonly subject?: string;
  /** What to do about a wrong value, added to every error. */
  readonly hint?: string;
  /** Where the options were read from (a configuration file). */
  readonly location?: ErrorLocation;
  /** The line of the value at a key path in that file (see `parseYamlText`), named for the first wrong key. */
  readonly lineOf?: (path: readonly PropertyKey[]) => number | undefined;
}

/**
 * Validates `value` against an options schema and returns its output (defaults filled in). Throws one
 * `INVALID_OPTIONS` error naming every wrong key: what it must be and what it was, and for unknown keys the ones
 * that are allowed. The schemas' error messages say what a valid value is (`a positive integer`).
 */
export function parseOptions<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  source: OptionsSource,
): z.output<Schema> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw optionsError(parsed.error.issues, schema, source);
}

/** One `INVALID_OPTIONS` error for the issues of a failed parse. */
export function optionsError(
  issues: readonly z.core.$ZodIssue[],
  schema: z.ZodType,
  source: OptionsSource,
): CondenseError {
  const messages: string[] = [];
  const hints: string[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const at = path === '' ? '' : `${path}: `;
      const known = knownKeys(schema, issue.path);
      for (const key of issue.keys) {
        const near = closestKey(key, known);
        messages.push(
          `${at}unknown ${source.noun} "${key}"${near === undefined ? '' : ` (did you mean "${near}"?)`}`,
        );
      }
      const where = path === '' ? '' : ` in ${path}`;
      if (known.length > 0) hints.push(`known ${plural(keyWord(source.noun))}${where}: ${known.join(', ')}`);
      continue;
    }
    const label = path === '' ? (source.subject ?? 'the options') : path;
    const got = 'input' in issue ? `, got ${show(issue.input)}` : '';
    messages.push(`${label} must be ${issue.message}${got}`);
  }
  if (source.hint !== undefined) hints.push(source.hint);
  const location = locate(issues[0], source);
  return new CondenseError({
    code: 'INVALID_OPTIONS',
    message: messages.join('; '),
    ...(hints.length === 0 ? {} : { hint: hints.join('; ') }),
    ...(location === undefined ? {} : { location }),
  });
}

/** Where the first wrong key is: the source's location, with the key's line when the source can tell it. */
function locate(issue: z.core.$ZodIssue | undefined, source: OptionsSource): ErrorLocation | undefined {
  if (issue === undefined || source.lineOf === undefined) return source.location;
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const line = source.lineOf(path);
  return line === undefined ? source.location : { ...source.location, line };
}

/** An `INVALID_OPTIONS` error for a rule a schema does not express (two options that must agree). */
export function invalidOption(message: string, hint?: string): CondenseError {
  return new CondenseError({ code: 'INVALID_OPTIONS', message, ...(hint === undefined ? {} : { hint }) });
}

/** A value as an error message shows it: strings quoted, objects as short JSON. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object' || value === null) return String(value);
  try {
    const json = JSON.stringify(value);
    return json.length > 60 ? `${json.slice(0, 57)}...` : json;
  } catch {
    return 'an object';
  }
}

/** The last word of a noun: `option` of `compressor option`. */
function keyWord(noun: string): string {
  return noun.slice(noun.lastIndexOf(' ') + 1);
}

function plural(noun: string): string {
  return /[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`;
}

interface SchemaDefinition {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly in?: z.ZodType;
}

/** The keys an object schema at `path` allows, looking through optional, default, array and pipe wrappers. */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = schema;
  let rest = [...path];
  while (current !== undefined) {
    const definition = current._zod.def as unknown as SchemaDefinition;
    if (definition.type === 'object') {
      if (rest.length === 0) return Object.keys(definition.shape ?? {});
      current = definition.shape?.[String(rest[0])];
      rest = rest.slice(1);
    } else if (definition.type === 'array') {
      current = definition.element;
      rest = rest.slice(1);
    } else {
      current = definition.innerType ?? definition.in;
    }
  }
  return [];
}

/** `true` when two object types have the same keys: ties an options interface to its schema at compile time. */
export type SameKeys<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? true
    : false
  : false;

/**
 * The value of an option given under its name or its deprecated alias. Both at once must agree, so an old key
 * left in a configuration never silently loses to the new one.
 */
export function alias<Options extends object, Name extends keyof Options>(
  options: Options,
  name: Name,
  deprecated: keyof Options,
): Options[Name] | undefined {
  const current = options[name];
  const old = options[deprecated] as Options[Name] | undefined;
  if (current !== undefined && old !== undefined && current !== old) {
    throw invalidOption(
      `${String(name)} (${show(current)}) and its deprecated alias ${String(deprecated)} (${show(old)}) disagree`,
      `set only ${String(name)}`,
    );
  }
  return current ?? old;
}
