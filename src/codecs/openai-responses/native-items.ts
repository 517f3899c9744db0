import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ToolCallPart, ToolResultContentPart, ToolResultPart } from '../../model/part.js';
import { parseNestedJson } from '../json-depth.js';
import { imageFromUrl, imageUrl } from './decode-content.js';
import { lookup, NATIVE_CALLS, nativeOutputCallId } from './item-kinds.js';
import { metaObject, metaString, ownMeta, withOwnMeta } from './meta.js';

/**
 * A built-in call the client executes (computer use, local shell, shell, apply patch, MCP approval, client tool
 * search) as a tool call: its input becomes the JSON arguments, its tool the name, and the original item rides
 * in part meta so an unchanged call is written back exactly.
 */
export function decodeNativeCall(item: JsonObject): ToolCallPart {
  const type = item['type'] as string;
  const spec = lookup(NATIVE_CALLS, type);
  const id = spec === undefined ? '' : (item[spec.idKey] as string);
  const name = typeof item['name'] === 'string' ? item['name'] : (spec?.tool ?? type);
  const input = spec === undefined ? null : (item[spec.field] ?? null);
  return {
    type: 'tool-call',
    id,
    name,
    arguments: typeof input === 'string' ? input : JSON.stringify(input),
    ...withOwnMeta({ t: type, native: item }),
  };
}

/** The item of a built-in call part: the original while id, name and input are unchanged, else rebuilt. */
export function encodeNativeCall(part: ToolCallPart): JsonObject | undefined {
  const meta = ownMeta(part);
  const native = metaObject(meta, 'native');
  const type = metaString(meta, 't');
  const spec = lookup(NATIVE_CALLS, type);
  if (native === undefined || spec === undefined) return undefined;
  const original = decodeNativeCall(native);
  if (original.id === part.id && original.name === part.name && original.arguments === part.arguments) {
    return native;
  }
  const input = native[spec.field];
  return {
    ...native,
    [spec.idKey]: part.id,
    [spec.field]: typeof input === 'string' ? part.arguments : parseOr(part.arguments, input ?? null),
  };
}

function parseOr(text: string, fallback: JsonValue): JsonValue {
  try {
    return parseNestedJson(text) as JsonValue;
  } catch {
    return fallback;
  }
}

/**
 * The output of a built-in call as a tool result: a screenshot becomes an image, shell and patch outputs their
 * text, an MCP approval `approve: true|false` (and its reason). The original item rides in part meta.
 */
export function decodeNativeOutput(item: JsonObject): ToolResultPart {
  const content = nativeContent(item);
  return {
    type: 'tool-result',
    callId: nativeOutputCallId(item) ?? '',
    content,
    ...(isFailure(item) ? { isError: true } : {}),
    ...withOwnMeta({ t: String(item['type']), native: item }),
  };
}

function isFailure(item: JsonObject): boolean {
  return item['status'] === 'failed' || item['status'] === 'incomplete';
}

function nativeContent(item: JsonObject): ToolResultContentPart[] {
  const output = item['output'];
  switch (item['type']) {
    case 'computer_call_output': {
      const url = isJsonObject(output) ? output['image_url'] : undefined;
      const image = typeof url === 'string' ? imageFromUrl(url) : undefined;
      return image === undefined
        ? [{ type: 'opaque', kind: 'computer_screenshot', value: output ?? null }]
        : [image];
    }
    case 'mcp_approval_response': {
      const reason = item['reason'];
      const text = `approve: ${item['approve'] === true}${typeof reason === 'string' ? `\nreason: ${reason}` : ''}`;
      return [{ type: 'text', text }];
    }
    case 'shell_call_output':
      return [{ type: 'text', text: shellText(output) }];
    case 'tool_search_output':
      return [{ type: 'text', text: JSON.stringify(item['tools'] ?? []) }];
    default:
      if (typeof output === 'string') return [{ type: 'text', text: output }];
      return [
        { type: 'text', text: output === undefined ? String(item['status'] ?? '') : JSON.stringify(output) },
      ];
  }
}

function shellText(output: unknown): string {
  if (!Array.isArray(output)) return JSON.stringify(output ?? null);
  return output
    .map((entry) => {
      if (!isJsonObject(entry)) return JSON.stringify(entry);
      const outcome = isJsonObject(entry['outcome']) ? entry['outcome'] : {};
      const status =
        outcome['type'] === 'exit'
          ? `exit code ${String(outcome['exit_code'])}`
          : String(outcome['type'] ?? '');
      return [entry['stdout'], entry['stderr'], status]
        .filter((piece) => typeof piece === 'string' && piece !== '')
        .join('\n');
    })
    .join('\n');
}

/**
 * The item of a built-in output part: the original while its content is unchanged. Changed content (a digest, a
 * redaction) goes where the item type has text: `output` of local shell and apply patch outputs, the stdout of a
 * shell output, a new screenshot for computer use; item types without a text field keep their original.
 */
export function encodeNativeOutput(part: ToolResultPart): JsonObject | undefined {
  const meta = ownMeta(part);
  const native = metaObject(meta, 'native');
  if (native === undefined) return undefined;
  const original = decodeNativeOutput(native);
  const key = nativeKey(native);
  const withId =
    key === undefined || native[key] === part.callId ? native : { ...native, [key]: part.callId };
  if (sameContent(original.content, part.content)) return withId;
  const text = part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('\n');
  switch (native['type']) {
    case 'local_shell_call_output':
    case 'apply_patch_call_output':
      return { ...withId, output: text };
    case 'shell_call_output':
      return { ...withId, output: [{ stdout: text, stderr: '', outcome: { type: 'exit', exit_code: 0 } }] };
    case 'computer_call_output': {
      const image = part.content.find((inner) => inner.type === 'image');
      if (image === undefined || image.type !== 'image') return withId;
      return { ...withId, output: { type: 'computer_screenshot', image_url: imageUrl(image) } };
    }
    default:
      return withId;
  }
}

function nativeKey(item: JsonObject): string | undefined {
  if (typeof item['call_id'] === 'string') return 'call_id';
  if (typeof item['approval_request_id'] === 'string') return 'approval_request_id';
  return typeof item['id'] === 'string' ? 'id' : undefined;
}

function sameContent(
  left: readonly ToolResultContentPart[],
  right: readonly ToolResultContentPart[],
): boolean {
  if (left.length !== right.length) return false;
  return left.every(
    (part, index) => JSON.stringify(stripMeta(part)) === JSON.stringify(stripMeta(right[index])),
  );
}

function stripMeta(part: ToolResultContentPart | undefined): unknown {
  if (part === undefined) return undefined;
  const { meta: _meta, ...rest } = part;
  return rest;
}
