import { closingQuote } from '../codecs/json-depth.js';
import { appendAll } from '../model/arrays.js';
import type { JsonValue } from '../model/json.js';
import type { SecretKind } from './kinds.js';
import { isCredentialHeader } from './names.js';
import type { Redactor } from './redactor.js';

/** A step of a path into structured data: an object key or an array index. */
export type PathSegment = string | number;

/** A finding inside structured data: the path of the string it is in, and offsets in that string. */
export interface LocatedFinding {
  readonly kind: SecretKind;
  readonly path: readonly PathSegment[];
  readonly start: number;
  readonly end: number;
}

/** A redacted value (the very input when nothing was found) and its findings. */
export interface RedactedValue<TValue> {
  readonly value: TValue;
  readonly findings: readonly LocatedFinding[];
}

/**
 * Redacts every string leaf of a JSON value, key-aware (the value of `"password"` goes whole). Objects and
 * arrays without findings come back as the same references.
 */
export function redactJsonValue(
  value: JsonValue,
  redactor: Redactor,
  path: readonly PathSegment[] = [],
  key?: string,
): RedactedValue<JsonValue> {
  return redactValue(value, redactor, path, undefined, key);
}

/**
 * Where a value sits below the path handed to {@link redactJsonValue}, innermost step first: the path of a
 * leaf is spelled out only for a leaf with findings (most leaves have none).
 */
interface PathStep {
  readonly parent: PathStep | undefined;
  readonly segment: PathSegment;
}

function pathOf(base: readonly PathSegment[], step: PathStep | undefined): readonly PathSegment[] {
  if (step === undefined) return base;
  const below: PathSegment[] = [];
  for (let at: PathStep | undefined = step; at !== undefined; at = at.parent) below.push(at.segment);
  return [...base, ...below.reverse()];
}

function redactValue(
  value: JsonValue,
  redactor: Redactor,
  base: readonly PathSegment[],
  step: PathStep | undefined,
  key: string | undefined,
): RedactedValue<JsonValue> {
  if (typeof value === 'string') {
    const result = redactor.field(value, key);
    if (result.findings.length === 0) return { value, findings: [] };
    const path = pathOf(base, step);
    return { value: result.text, findings: result.findings.map((finding) => ({ ...finding, path })) };
  }
  if (Array.isArray(value)) {
    const findings: LocatedFinding[] = [];
    let changed: JsonValue[] | undefined;
    value.forEach((element: JsonValue, index) => {
      const at = { parent: step, segment: index };
      const result = redactValue(element, redactor, base, at, pairKey(value[index - 1]) ?? key);
      if (result.findings.length === 0) return;
      appendAll(findings, result.findings);
      changed ??= [...value];
      changed[index] = result.value;
    });
    return changed === undefined ? { value, findings } : { value: changed, findings };
  }
  if (value === null || typeof value !== 'object') return { value, findings: [] };
  const findings: LocatedFinding[] = [];
  let changed: Record<string, JsonValue> | undefined;
  for (const [entryKey, entry] of Object.entries(value)) {
    if (entry === undefined) continue;
    const result = redactValue(entry, redactor, base, { parent: step, segment: entryKey }, entryKey);
    if (result.findings.length === 0) continue;
    appendAll(findings, result.findings);
    changed ??= { ...value } as Record<string, JsonValue>;
    // defineProperty, not assignment: a `__proto__` key parsed from JSON is an own property and must stay one.
    Object.defineProperty(changed, entryKey, {
      value: result.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return changed === undefined ? { value, findings } : { value: changed, findings };
}

interface Frame {
  readonly container: 'object' | 'array';
  key: string | undefined;
  index: number;
  expectKey: boolean;
  /** In an array: the current element and the one before it, when they are strings. */
  current?: string | undefined;
  previous?: string | undefined;
}

/** The element before a value in an array, when it names a credential header: `["Authorization", "Bearer …"]`. */
function pairKey(previous: JsonValue | undefined): string | undefined {
  return typeof previous === 'string' && isCredentialHeader(previous) ? previous : undefined;
}

/**
 * Redacts JSON text (tool-call arguments) value by value, keeping it valid JSON and byte-identical outside
 * the strings that change: numbers, spacing and key order are never re-serialised. Text that is not JSON is
 * redacted as plain text (masks contain no quote or backslash, so they cannot break it further).
 */
export function redactJsonText(
  text: string,
  redactor: Redactor,
  path: readonly PathSegment[] = [],
): RedactedValue<string> {
  if (!isJson(text)) {
    const result = redactor.text(text);
    return { value: result.text, findings: result.findings.map((finding) => ({ ...finding, path })) };
  }
  const frames: Frame[] = [];
  const findings: LocatedFinding[] = [];
  let out = '';
  let copied = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    const top = frames[frames.length - 1];
    if (char === '{' || char === '[') {
      frames.push({
        container: char === '{' ? 'object' : 'array',
        key: undefined,
        index: 0,
        expectKey: char === '{',
      });
    } else if (char === '}' || char === ']') frames.pop();
    else if (char === ',' && top !== undefined) {
      if (top.container === 'object') top.expectKey = true;
      else {
        top.index++;
        top.previous = top.current;
        top.current = undefined;
      }
    } else if (char === ':' && top !== undefined) top.expectKey = false;
    else if (char === '"') {
      const close = closingQuote(text, index + 1);
      const end = close === -1 ? text.length : close + 1;
      // The text is valid JSON: a string without a backslash is its own contents.
      const body = text.slice(index + 1, end - 1);
      const literal = body.includes('\\') ? (JSON.parse(text.slice(index, end)) as string) : body;
      if (top !== undefined && top.container === 'object' && top.expectKey) top.key = literal;
      else {
        const pair = top?.container === 'array' ? pairKey(top.previous) : undefined;
        if (top?.container === 'array') top.current = literal;
        const result = redactor.field(literal, pair ?? nearestKey(frames));
        if (result.findings.length > 0) {
          const leafPath = [
            ...path,
            ...frames.map((frame) => (frame.container === 'object' ? (frame.key ?? '') : frame.index)),
          ];
          out += text.slice(copied, index) + JSON.stringify(result.text);
          copied = end;
          for (const finding of result.findings) findings.push({ ...finding, path: leafPath });
        }
      }
      index = end - 1;
    }
  }
  if (findings.length === 0) return { value: text, findings };
  return { value: out + text.slice(copied), findings };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The key a string value sits under: its own key, or for array elements the key of the array. */
function nearestKey(frames: readonly Frame[]): string | undefined {
  for (let index = frames.length - 1; index >= 0; index--) {
    const frame = frames[index];
    if (frame?.container === 'object') return frame.key;
  }
  return undefined;
}
