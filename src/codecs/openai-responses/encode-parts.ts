import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Part, ToolCallPart, ToolResultContentPart, ToolResultPart } from '../../model/part.js';
import { parseNestedJson } from '../json-depth.js';
import { markErrorContent } from '../portable/tool-error.js';
import { imageUrl } from './decode-content.js';
import { lookup, NATIVE_CALLS } from './item-kinds.js';
import { metaObject, metaString, ownMeta } from './meta.js';
import { encodeNativeCall, encodeNativeOutput } from './native-items.js';

/** A JSON object built with the keys of `keys` first, in that order, then any others. */
export function ordered(keys: unknown, values: Record<string, unknown>): JsonObject {
  const out: Record<string, unknown> = {};
  if (Array.isArray(keys)) {
    for (const key of keys) {
      if (typeof key === 'string' && values[key] !== undefined) out[key] = values[key];
    }
  }
  for (const [key, value] of Object.entries(values))
    if (value !== undefined && !(key in out)) out[key] = value;
  return out as JsonObject;
}

/** One content part of a message item. `role` decides the text type of parts from another format. */
export function encodeContentPart(part: Part, role: 'assistant' | 'user'): JsonValue {
  const meta = ownMeta(part);
  const extra = metaObject(meta, 'extra') ?? {};
  switch (part.type) {
    case 'text': {
      const type = metaString(meta, 't') ?? (role === 'assistant' ? 'output_text' : 'input_text');
      return type === 'refusal'
        ? ({ type, refusal: part.text, ...extra } as JsonObject)
        : ({ type, text: part.text, ...extra } as JsonObject);
    }
    case 'image':
      if (role === 'assistant') return { type: 'output_text', text: '[image omitted]' };
      return { type: 'input_image', image_url: imageUrl(part), ...extra } as JsonObject;
    case 'opaque':
      if (meta?.['c'] === true) return part.value;
      return { type: role === 'assistant' ? 'output_text' : 'input_text', text: `[${part.kind} omitted]` };
    case 'reasoning':
    case 'tool-call':
    case 'tool-result':
      return { type: role === 'assistant' ? 'output_text' : 'input_text', text: `[${part.type} omitted]` };
  }
}

/** True when every part is text a plain string content can hold. */
export function isPlainText(parts: readonly Part[]): boolean {
  return parts.every((part) => {
    if (part.type !== 'text') return false;
    const meta = ownMeta(part);
    const type = metaString(meta, 't');
    return (
      (type === undefined || type === 'input_text' || type === 'output_text') && meta?.['extra'] === undefined
    );
  });
}

/** The `content` of a message item: a string when it was read as one (or is new plain text of a non-assistant). */
export function encodeContent(
  parts: readonly Part[],
  role: 'assistant' | 'user',
  shape: string | undefined,
): JsonValue {
  const only = parts[0];
  if (shape === 'other' && parts.length === 1 && only?.type === 'opaque') return only.value;
  const wantString = shape === 'string' || (shape === undefined && role === 'user');
  if (wantString && isPlainText(parts))
    return parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return parts.map((part) => encodeContentPart(part, role));
}

/** The item of a tool call: its original shape (function, custom, built-in) or a `function_call`. */
export function encodeCall(part: ToolCallPart): JsonObject {
  const meta = ownMeta(part);
  const native = encodeNativeCall(part);
  if (native !== undefined) return native;
  const extra = metaObject(meta, 'extra') ?? {};
  if (metaString(meta, 't') === 'custom_tool_call') {
    return ordered(meta?.['keys'], {
      type: 'custom_tool_call',
      ...extra,
      call_id: part.id,
      name: part.name,
      input: customInput(part.arguments),
    });
  }
  return ordered(meta?.['keys'], {
    type: 'function_call',
    ...extra,
    call_id: part.id,
    name: part.name,
    arguments: rawArguments(meta?.['rawArguments'], part.arguments),
  });
}

function rawArguments(raw: unknown, text: string): unknown {
  if (raw === 'absent') return text === '{}' ? undefined : text;
  return raw === true ? parseOr(text) : text;
}

function customInput(text: string): string {
  const value = parseOr(text);
  if (isJsonObject(value) && typeof value['input'] === 'string' && Object.keys(value).length === 1) {
    return value['input'];
  }
  return text;
}

function parseOr(text: string): unknown {
  try {
    return parseNestedJson(text);
  } catch {
    return text;
  }
}

/** How tool results answering built-in calls are written when they came from another format. */
export interface OutputOptions {
  /** The item type of each call id in the transcript (`function_call`, `custom_tool_call`, `shell_call`…). */
  readonly callTypes: ReadonlyMap<string, string>;
  /**
   * Answer built-in calls with their own output item types (the API requires it); Codex answers every call
   * that is not a custom tool with `function_call_output`. @default true
   */
  readonly nativeOutputs?: boolean;
}

/** The output item of a tool result. */
export function encodeOutput(part: ToolResultPart, options: OutputOptions): JsonObject {
  const native = encodeNativeOutput(part);
  if (native !== undefined) return native;
  const meta = ownMeta(part);
  const callType = options.callTypes.get(part.callId);
  const own = metaString(meta, 't');
  if (own === undefined && callType !== undefined && options.nativeOutputs !== false) {
    const built = foreignNativeOutput(part, callType);
    if (built !== undefined) return built;
  }
  const type = own ?? (callType === 'custom_tool_call' ? 'custom_tool_call_output' : 'function_call_output');
  return ordered(meta?.['keys'], {
    type,
    ...(metaObject(meta, 'extra') ?? {}),
    call_id: part.callId,
    ...(meta?.['name'] === true && part.name !== undefined ? { name: part.name } : {}),
    output: outputValue(part, metaString(meta, 'shape'), metaObject(meta, 'outputExtra')),
  });
}

function outputValue(
  part: ToolResultPart,
  shape: string | undefined,
  outputExtra: JsonObject | undefined,
): JsonValue {
  // Output items have no error flag: a failure is marked in its text, as on every wire without one.
  const content = part.isError === true && shape !== 'object' ? markErrorContent(part.content) : part.content;
  const text = () => content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('\n');
  const only = content[0];
  if (shape === 'other' && content.length === 1 && only?.type === 'opaque') return only.value;
  if (shape === 'object') {
    const extra: Record<string, JsonValue | undefined> = { ...outputExtra };
    if (part.isError === true) extra['success'] = false;
    else if (extra['success'] === false) extra['success'] = true;
    return { content: text(), ...extra } as JsonObject;
  }
  const plain = content.every((inner) => inner.type === 'text' && ownMeta(inner)?.['extra'] === undefined);
  if (plain && shape !== 'parts') return text();
  return content.map(outputContentPart);
}

function outputContentPart(part: ToolResultContentPart): JsonValue {
  const meta = ownMeta(part);
  const extra = metaObject(meta, 'extra') ?? {};
  switch (part.type) {
    case 'text':
      return { type: metaString(meta, 't') ?? 'input_text', text: part.text, ...extra } as JsonObject;
    case 'image':
      return { type: 'input_image', image_url: imageUrl(part), ...extra } as JsonObject;
    case 'opaque':
      return meta?.['c'] === true ? part.value : { type: 'input_text', text: `[${part.kind} omitted]` };
  }
}

/** An output item for a result from another format answering a built-in call, in the shape that call needs. */
function foreignNativeOutput(part: ToolResultPart, callType: string): JsonObject | undefined {
  const spec = lookup(NATIVE_CALLS, callType);
  if (spec === undefined) return undefined;
  const text = part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('\n');
  switch (spec.output) {
    case 'local_shell_call_output':
      return { type: spec.output, call_id: part.callId, output: text };
    case 'shell_call_output':
      return {
        type: spec.output,
        call_id: part.callId,
        output: [
          { stdout: text, stderr: '', outcome: { type: 'exit', exit_code: part.isError === true ? 1 : 0 } },
        ],
      };
    case 'apply_patch_call_output':
      return {
        type: spec.output,
        call_id: part.callId,
        status: part.isError === true ? 'failed' : 'completed',
        output: text,
      };
    case 'mcp_approval_response':
      return { type: spec.output, approval_request_id: part.callId, approve: /approve:\s*true/.test(text) };
    case 'computer_call_output': {
      const image = part.content.find((inner) => inner.type === 'image');
      if (image === undefined || image.type !== 'image') return undefined;
      return {
        type: spec.output,
        call_id: part.callId,
        output: { type: 'computer_screenshot', image_url: imageUrl(image) },
      };
    }
    default:
      return undefined;
  }
}
