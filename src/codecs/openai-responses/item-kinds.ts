import { isJsonObject, type JsonObject } from '../../model/json.js';

/**
 * Call items a client answers with an output item of its own, paired by id. `tool` names the tool when the item
 * carries no name; `field` holds the call's input, shown to condense as the call's JSON arguments; `idKey` is
 * where the pairing id lives.
 */
export interface NativeCall {
  readonly tool: string;
  readonly field: string;
  readonly idKey: 'call_id' | 'id';
  /** The output item type that answers it (the API rejects any other). */
  readonly output: string;
}

/** `table[key]` for the table's own keys only (a wire `type` of `"constructor"` must not find a prototype member). */
export function lookup<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Built-in tool calls the client executes (their outputs come back as input items). */
export const NATIVE_CALLS: Readonly<Record<string, NativeCall>> = {
  computer_call: { tool: 'computer', field: 'action', idKey: 'call_id', output: 'computer_call_output' },
  local_shell_call: {
    tool: 'local_shell',
    field: 'action',
    idKey: 'call_id',
    output: 'local_shell_call_output',
  },
  shell_call: { tool: 'shell', field: 'action', idKey: 'call_id', output: 'shell_call_output' },
  apply_patch_call: {
    tool: 'apply_patch',
    field: 'operation',
    idKey: 'call_id',
    output: 'apply_patch_call_output',
  },
  mcp_approval_request: {
    tool: 'mcp_approval',
    field: 'arguments',
    idKey: 'id',
    output: 'mcp_approval_response',
  },
  tool_search_call: {
    tool: 'tool_search',
    field: 'arguments',
    idKey: 'call_id',
    output: 'tool_search_output',
  },
};

/** Output items answering a built-in call, and where they name the call. */
export const NATIVE_OUTPUTS: Readonly<
  Record<string, { readonly callKey: string; readonly fallbackKey?: string }>
> = {
  computer_call_output: { callKey: 'call_id' },
  local_shell_call_output: { callKey: 'call_id', fallbackKey: 'id' },
  shell_call_output: { callKey: 'call_id' },
  apply_patch_call_output: { callKey: 'call_id' },
  mcp_approval_response: { callKey: 'approval_request_id' },
  tool_search_output: { callKey: 'call_id' },
};

/** What an item is to the transcript model. */
export type ItemKind =
  /** A `message` item (or an easy input message: `role` and `content` without `type`). */
  | 'message'
  /** `function_call`: a tool call with JSON arguments. */
  | 'function-call'
  /** `custom_tool_call`: a tool call with free-form text input. */
  | 'custom-call'
  /** A built-in call the client answers ({@link NATIVE_CALLS}). */
  | 'native-call'
  | 'function-output'
  | 'custom-output'
  | 'native-output'
  | 'reasoning'
  /** Anything else: server-side tool items, compaction, item references, unknown types. Carried verbatim. */
  | 'opaque';

const SIMPLE_KINDS: Readonly<Record<string, { readonly kind: ItemKind; readonly needsCallId: boolean }>> = {
  function_call: { kind: 'function-call', needsCallId: true },
  custom_tool_call: { kind: 'custom-call', needsCallId: true },
  function_call_output: { kind: 'function-output', needsCallId: true },
  custom_tool_call_output: { kind: 'custom-output', needsCallId: true },
  reasoning: { kind: 'reasoning', needsCallId: false },
};

/** The kind of a parsed item. Calls and outputs without an id to pair by are carried as opaque items. */
export function itemKind(item: JsonObject): ItemKind {
  const type = item['type'];
  if (type === undefined || type === 'message') {
    return typeof item['role'] === 'string' && 'content' in item ? 'message' : 'opaque';
  }
  if (typeof type !== 'string') return 'opaque';
  const simple = lookup(SIMPLE_KINDS, type);
  if (simple !== undefined)
    return simple.needsCallId && typeof item['call_id'] !== 'string' ? 'opaque' : simple.kind;
  const call = lookup(NATIVE_CALLS, type);
  if (call !== undefined) return typeof item[call.idKey] === 'string' ? 'native-call' : 'opaque';
  return nativeOutputCallId(item) === undefined ? 'opaque' : 'native-output';
}

/** The id a built-in output item answers, or `undefined` when the item is none or names no call. */
export function nativeOutputCallId(item: JsonObject): string | undefined {
  const type = item['type'];
  const output = typeof type === 'string' ? lookup(NATIVE_OUTPUTS, type) : undefined;
  if (output === undefined) return undefined;
  const id =
    item[output.callKey] ?? (output.fallbackKey === undefined ? undefined : item[output.fallbackKey]);
  return typeof id === 'string' ? id : undefined;
}

/** The id a built-in call is answered by. */
export function nativeCallId(item: JsonObject): string | undefined {
  const type = item['type'];
  const call = typeof type === 'string' ? lookup(NATIVE_CALLS, type) : undefined;
  const id = call === undefined ? undefined : item[call.idKey];
  return typeof id === 'string' ? id : undefined;
}

/** Item types only the Responses API (and Codex) uses: their presence tells the format apart from chat messages. */
export const DISTINCTIVE_TYPES: ReadonlySet<string> = new Set([
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'tool_search_call',
  'tool_search_output',
  'item_reference',
  'compaction',
]);

/** Content part types of Responses messages. */
export const CONTENT_TYPES: ReadonlySet<string> = new Set([
  'input_text',
  'output_text',
  'input_image',
  'input_file',
  'input_audio',
  'refusal',
]);

/** True when `value` looks like a Responses item: a distinctive type, or a message with Responses content parts. */
export function isDistinctiveItem(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const type = value['type'];
  if (typeof type === 'string' && DISTINCTIVE_TYPES.has(type)) return true;
  if (type !== undefined && type !== 'message') return false;
  const content = value['content'];
  return (
    typeof value['role'] === 'string' &&
    Array.isArray(content) &&
    content.some(
      (part) => isJsonObject(part) && typeof part['type'] === 'string' && CONTENT_TYPES.has(part['type']),
    )
  );
}
