import type { JsonValue } from '../../model/json.js';
import type { Part, ToolCallPart } from '../../model/part.js';
import { parseNestedJson } from '../json-depth.js';
import { asJson, extraKeys, isWireObject, stringField } from '../wire-object.js';
import { opaque } from './decode-content.js';
import { metaObject, metaString, partMeta, withPartMeta } from './meta.js';

/**
 * Decodes an assistant's `tool_calls` array. A malformed entry stays in place as an opaque part that is written
 * back into `tool_calls`. `nextId` supplies a deterministic id for an entry without one.
 */
export function decodeToolCalls(calls: readonly unknown[], nextId: () => string): Part[] {
  return calls.map((call) => decodeToolCall(call, nextId) ?? opaqueCall(call));
}

function opaqueCall(call: unknown): Part {
  const part = opaque('tool_call', call);
  return { ...part, ...withPartMeta({ verbatim: true, slot: 'tool_calls' }) };
}

function decodeToolCall(call: unknown, nextId: () => string): ToolCallPart | undefined {
  if (!isWireObject(call)) return undefined;
  const fn = call['function'];
  if (!isWireObject(fn)) return undefined;
  const name = stringField(fn, 'name');
  if (name === undefined) return undefined;
  const id = stringField(call, 'id');
  const args = fn['arguments'];
  return {
    type: 'tool-call',
    id: id ?? nextId(),
    name,
    arguments: argumentsText(args),
    ...withPartMeta({
      extra: extraKeys(call, ['id', 'function']),
      fnExtra: extraKeys(fn, ['name', 'arguments']),
      args: argumentsShape(args),
      synthetic: id === undefined ? true : undefined,
      noType: 'type' in call ? undefined : true,
    }),
  };
}

/** Argument text of a wire `arguments` value: the string itself, or the JSON text of any other value. */
export function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  return args === undefined ? '{}' : JSON.stringify(args);
}

function argumentsShape(args: unknown): JsonValue | undefined {
  if (typeof args === 'string') return undefined;
  return args === undefined ? 'absent' : 'value';
}

/** Decodes a legacy `function_call: {name, arguments}` into a tool call with a synthesized id. */
export function decodeFunctionCall(call: unknown, id: string): Part {
  if (!isWireObject(call)) return opaqueCall(call);
  const name = stringField(call, 'name');
  if (name === undefined) return opaqueCall(call);
  const args = call['arguments'];
  return {
    type: 'tool-call',
    id,
    name,
    arguments: argumentsText(args),
    ...withPartMeta({
      legacy: true,
      synthetic: true,
      fnExtra: extraKeys(call, ['name', 'arguments']),
      args: argumentsShape(args),
    }),
  };
}

/** The `function` object of a tool call, restoring the argument shape it was read with. */
function encodeFunction(part: ToolCallPart): Record<string, unknown> {
  const meta = partMeta(part);
  const shape = metaString(meta, 'args');
  const fn: Record<string, unknown> = { ...metaObject(meta, 'fnExtra'), name: part.name };
  if (shape === 'value') fn['arguments'] = parseOr(part.arguments, part.arguments);
  else if (shape !== 'absent' || part.arguments !== '{}') fn['arguments'] = part.arguments;
  return fn;
}

function parseOr(text: string, fallback: unknown): unknown {
  try {
    return parseNestedJson(text);
  } catch {
    return fallback;
  }
}

/** One entry of `tool_calls`. A synthesized id is still written: the `tool` message refers to it. */
export function encodeToolCall(part: ToolCallPart | Part): unknown {
  if (part.type !== 'tool-call') return part.type === 'opaque' ? part.value : undefined;
  const meta = partMeta(part);
  if (meta === undefined) return { id: part.id, type: 'function', function: encodeFunction(part) };
  const extra = metaObject(meta, 'extra');
  const synthetic = meta['synthetic'] === true && meta['legacy'] === undefined && meta['typed'] === undefined;
  return {
    ...(synthetic ? {} : { id: part.id }),
    ...(extra ?? {}),
    function: encodeFunction(part),
  };
}

/** A legacy `function_call` value. */
export function encodeFunctionCall(part: ToolCallPart): unknown {
  return encodeFunction(part);
}

/** True when the part was read from a legacy `function_call`. */
export function isLegacyCall(part: Part): boolean {
  return part.type === 'tool-call' && partMeta(part)?.['legacy'] === true;
}

/** True when the part is written inside `content` (the typed-value dialect) rather than in `tool_calls`. */
export function isTypedCall(part: Part, typedDialect: boolean): boolean {
  if (part.type !== 'tool-call') return false;
  const meta = partMeta(part);
  if (meta === undefined) return typedDialect;
  return typeof meta['typed'] === 'string';
}

/** The JSON value of an argument text, or the text itself when it is not JSON. */
export function argumentsValue(text: string): JsonValue {
  return asJson(parseOr(text, text));
}
