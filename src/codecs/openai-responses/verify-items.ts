import { isJsonObject, type JsonObject } from '../../model/json.js';
import { itemKind, lookup, NATIVE_CALLS, nativeCallId, nativeOutputCallId } from './item-kinds.js';

/** Stable codes of the rules {@link verifyResponsesInput} checks. */
export type ItemViolationCode =
  | 'invalid-item'
  | 'invalid-content'
  | 'duplicate-call-id'
  | 'missing-output'
  | 'duplicate-output'
  | 'orphan-output'
  | 'output-before-call'
  | 'output-type-mismatch'
  | 'reasoning-without-following-item';

/** One rule an item list breaks, at the index of the offending item. */
export interface ItemViolation {
  readonly code: ItemViolationCode;
  readonly index: number;
  readonly message: string;
  readonly callId?: string;
}

interface CallSeen {
  readonly index: number;
  readonly type: string;
  outputs: number;
}

const ASSISTANT_CONTENT = new Set(['output_text', 'refusal']);
const INPUT_CONTENT = new Set(['input_text', 'input_image', 'input_file', 'input_audio']);

/**
 * The rules the Responses API enforces on an `input` item list that condense can break by rewriting it:
 * every call (function, custom, built-in) has a unique `call_id` and exactly one output after it, of the type
 * that answers it (Codex answers local shell calls with `function_call_output`, which the API also takes);
 * every output answers an earlier call; assistant message content is `output_text`/`refusal` and other roles'
 * content is `input_*` parts; a reasoning item with an `id` is followed by another item of the same model turn.
 * An empty list means the items are valid as far as these rules go.
 */
export function verifyResponsesInput(items: readonly unknown[]): ItemViolation[] {
  const out: ItemViolation[] = [];
  const calls = new Map<string, CallSeen>();
  items.forEach((item, index) => {
    if (!isJsonObject(item)) {
      out.push({ code: 'invalid-item', index, message: `item ${index} is not an object` });
      return;
    }
    const kind = itemKind(item);
    switch (kind) {
      case 'message':
        checkContent(item, index, out);
        return;
      case 'function-call':
      case 'custom-call':
      case 'native-call': {
        const id = kind === 'native-call' ? (nativeCallId(item) as string) : (item['call_id'] as string);
        if (calls.has(id)) {
          out.push({ code: 'duplicate-call-id', index, callId: id, message: `call id ${id} is used twice` });
        } else calls.set(id, { index, type: String(item['type']), outputs: 0 });
        return;
      }
      case 'function-output':
      case 'custom-output':
      case 'native-output': {
        const id =
          kind === 'native-output' ? (nativeOutputCallId(item) as string) : (item['call_id'] as string);
        checkOutput(item, index, id, calls.get(id), out);
        return;
      }
      case 'reasoning':
        checkReasoning(items, item, index, out);
        return;
      case 'opaque':
        checkOpaque(item, index, out);
    }
  });
  for (const [id, call] of calls) {
    if (call.outputs === 0) {
      out.push({
        code: 'missing-output',
        index: call.index,
        callId: id,
        message: `call ${id} has no output`,
      });
    }
  }
  return out.sort((left, right) => left.index - right.index);
}

function checkContent(item: JsonObject, index: number, out: ItemViolation[]): void {
  const content = item['content'];
  const role = item['role'];
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) {
    out.push({ code: 'invalid-content', index, message: `message ${index} has no string or list content` });
    return;
  }
  const allowed = role === 'assistant' ? ASSISTANT_CONTENT : INPUT_CONTENT;
  for (const part of content) {
    const type = isJsonObject(part) ? part['type'] : undefined;
    if (typeof type !== 'string' || !allowed.has(type)) {
      out.push({
        code: 'invalid-content',
        index,
        message: `a ${String(role)} message cannot hold a ${JSON.stringify(type ?? null)} content part`,
      });
      return;
    }
  }
}

function checkOutput(
  item: JsonObject,
  index: number,
  id: string,
  call: CallSeen | undefined,
  out: ItemViolation[],
): void {
  if (call === undefined) {
    out.push({ code: 'orphan-output', index, callId: id, message: `output ${id} answers no earlier call` });
    return;
  }
  call.outputs++;
  if (call.outputs > 1) {
    out.push({ code: 'duplicate-output', index, callId: id, message: `call ${id} has more than one output` });
  }
  const type = String(item['type']);
  if (!answers(call.type, type)) {
    out.push({
      code: 'output-type-mismatch',
      index,
      callId: id,
      message: `a ${call.type} is answered by a ${type}`,
    });
  }
}

function answers(callType: string, outputType: string): boolean {
  if (callType === 'function_call') return outputType === 'function_call_output';
  if (callType === 'custom_tool_call') return outputType === 'custom_tool_call_output';
  if (callType === 'local_shell_call' && outputType === 'function_call_output') return true;
  return lookup(NATIVE_CALLS, callType)?.output === outputType;
}

/** Items that belong to the model's turn: a reasoning item must be followed by one of these. */
function isModelItem(item: unknown): boolean {
  if (!isJsonObject(item)) return false;
  const kind = itemKind(item);
  if (kind === 'message') return item['role'] === 'assistant';
  return kind !== 'function-output' && kind !== 'custom-output' && kind !== 'native-output';
}

function checkReasoning(
  items: readonly unknown[],
  item: JsonObject,
  index: number,
  out: ItemViolation[],
): void {
  if (typeof item['id'] !== 'string') return;
  if (!isModelItem(items[index + 1])) {
    out.push({
      code: 'reasoning-without-following-item',
      index,
      message: `reasoning item ${item['id']} is not followed by the item it was produced with`,
    });
  }
}

function checkOpaque(item: JsonObject, index: number, out: ItemViolation[]): void {
  if (item['type'] === 'item_reference' && typeof item['id'] !== 'string') {
    out.push({ code: 'invalid-item', index, message: `item reference ${index} has no id` });
  }
}
