import { appendAll } from '../../model/arrays.js';
import type { JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolResultContentPart, ToolResultPart } from '../../model/part.js';
import type { Role } from '../../model/role.js';
import type { DecodeIssue } from '../codec.js';
import { splitReasoningText } from '../portable/reasoning-text.js';
import { unmarkResult } from '../portable/tool-error.js';
import { extraKeys, isWireObject, stringField, type WireObject } from '../wire-object.js';
import { type ContentShape, decodeContent, opaque } from './decode-content.js';
import { decodedMessageMeta, partMeta, withPartMeta } from './meta.js';
import type { PendingCalls } from './pending-calls.js';
import { splitJsonArray } from './split-json-array.js';
import { decodeFunctionCall, decodeToolCalls } from './tool-calls.js';

/** State carried from one wire message to the next while decoding a conversation. */
export interface ChatDecodeState {
  /** Ids of the latest assistant message's tool calls that no result has answered yet, in order. */
  readonly pending: PendingCalls;
  readonly issues: DecodeIssue[];
  /** Path of the messages array inside the decoded value, for issue paths. */
  readonly path: readonly (string | number)[];
}

/** Codec fields of a decoded message; see `encode-message.ts` for how each is used. */
type Fields = Record<string, JsonValue | undefined>;

/** Decodes one chat message at `index` of its conversation. Never throws: unreadable values become opaque. */
export function decodeChatMessage(wire: unknown, index: number, state: ChatDecodeState): Message {
  if (!isWireObject(wire)) {
    state.issues.push({
      code: 'invalid-shape',
      severity: 'error',
      message: `message ${index} is not an object; it is carried verbatim`,
      path: [...state.path, index],
    });
    return build(wire, 'user', [opaque('invalid', wire)], { invalid: true });
  }
  const role = wire['role'];
  switch (role) {
    case 'system':
    case 'developer':
    case 'user':
      return plain(wire, role === 'user' ? 'user' : 'system', role === 'developer' ? 'developer' : undefined);
    case 'assistant':
      return assistant(wire, index, state);
    case 'tool':
    case 'function':
      return tool(wire, index, state);
    default:
      state.issues.push({
        code: 'unknown-role',
        severity: 'warning',
        message: `message ${index} has role ${JSON.stringify(role ?? null)}; it is read as a user message`,
        path: [...state.path, index, 'role'],
      });
      return plain(wire, 'user', undefined, true);
  }
}

function build(wire: unknown, role: Role, parts: Part[], fields: Fields): Message {
  return { role, parts, meta: decodedMessageMeta(wire, parts, fields) };
}

const NO_CALLS = { nextCallId: () => '', resultContent: false };

function plain(wire: WireObject, role: Role, wireRole: string | undefined, unknownRole = false): Message {
  const content = decodeContent(wire['content'], NO_CALLS);
  const consumed = unknownRole ? ['content'] : ['role', 'content'];
  return build(wire, role, content.parts, {
    content: content.shape,
    extra: extraKeys(wire, consumed),
    wireRole,
    unknownRole: unknownRole ? true : undefined,
  });
}

function assistant(wire: WireObject, index: number, state: ChatDecodeState): Message {
  let counter = 0;
  const nextCallId = (): string => `call_${index}_${counter++}`;
  const parts: Part[] = [];
  const consumed = ['role', 'content'];
  const reasoningKey = ['reasoning_content', 'reasoning'].find((key) => typeof wire[key] === 'string');
  if (reasoningKey !== undefined) {
    parts.push({ type: 'reasoning', text: wire[reasoningKey] as string });
    consumed.push(reasoningKey);
  }
  const content = decodeContent(wire['content'], { nextCallId, resultContent: false });
  parts.push(
    ...(reasoningKey === undefined && content.shape === 'string' ? thinkFirst(content.parts) : content.parts),
  );
  const calls = wire['tool_calls'];
  if (Array.isArray(calls) && calls.length > 0) {
    appendAll(parts, decodeToolCalls(calls, nextCallId));
    consumed.push('tool_calls');
  }
  if (isWireObject(wire['function_call'])) {
    parts.push(decodeFunctionCall(wire['function_call'], `call_legacy_${index}`));
    consumed.push('function_call');
  }
  const ids = parts.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
  if (ids.length > 0) state.pending.reset(ids);
  return build(wire, 'assistant', parts, {
    content: content.shape,
    extra: extraKeys(wire, consumed),
    reasoningKey,
  });
}

/**
 * Reasoning condense (or a reasoning model's dataset) wrote as `<think>` text at the start of a string content
 * becomes a reasoning part again; it is written back the same way.
 */
function thinkFirst(parts: readonly Part[]): Part[] {
  const [first, ...rest] = parts;
  if (first?.type !== 'text' || first.meta !== undefined) return [...parts];
  // Whitespace before the reasoning (Claude Code writes blank text around thinking) ends with the newline the
  // encoder joins parts with.
  const start = first.text.indexOf('<think>\n');
  const lead = start > 0 ? first.text.slice(0, start) : '';
  if (start === -1 || (start > 0 && (lead.trim() !== '' || !lead.endsWith('\n')))) return [...parts];
  const split = splitReasoningText(first.text.slice(start));
  if (split === undefined) return [...parts];
  const reasoning: Part = { type: 'reasoning', text: split.reasoning, ...withPartMeta({ field: 'think' }) };
  return [
    ...(lead.length > 1 ? [{ type: 'text' as const, text: lead.slice(0, -1) }] : []),
    reasoning,
    ...(split.rest === undefined ? [] : [{ type: 'text' as const, text: split.rest }]),
    ...rest,
  ];
}

function tool(wire: WireObject, index: number, state: ChatDecodeState): Message {
  const legacy = wire['role'] === 'function';
  const content = decodeContent(wire['content'], { nextCallId: () => '', resultContent: true });
  const body = content.parts as ToolResultContentPart[];
  const name = stringField(wire, 'name');
  const consumed = ['role', 'content', ...(name === undefined ? [] : ['name'])];
  const fields: Fields = { content: content.shape };
  let results: ToolResultPart[];
  const callId = legacy ? undefined : stringField(wire, 'tool_call_id');
  const callIds = legacy ? undefined : stringList(wire['tool_call_ids']);
  if (callId !== undefined) {
    consumed.push('tool_call_id');
    results = [result(callId, name, body, { name: name === undefined ? undefined : true })];
    state.pending.answer(callId);
  } else if (callIds !== undefined) {
    consumed.push('tool_call_ids');
    fields['ids'] = true;
    results = callIds.map((id) => result(id, name, body, { name: name === undefined ? undefined : true }));
    for (const id of callIds) state.pending.answer(id);
  } else {
    const split = legacy ? undefined : splitTyped(body, content.shape, state.pending.size);
    if (split === undefined) {
      results = [result(nextPending(index, state), name, body, positional(legacy, name))];
    } else {
      fields['split'] = true;
      results = split.map((text) => result(nextPending(index, state), name, [text], positional(false, name)));
    }
  }
  fields['extra'] = extraKeys(wire, consumed);
  return build(wire, 'tool', results, fields);
}

function positional(legacy: boolean, name: string | undefined): Fields {
  return { legacy: legacy ? true : undefined, noId: true, name: name === undefined ? undefined : true };
}

function result(
  callId: string,
  name: string | undefined,
  content: readonly ToolResultContentPart[],
  fields: Fields,
): ToolResultPart {
  return unmarkResult({
    type: 'tool-result',
    callId,
    ...(name === undefined ? {} : { name }),
    content,
    ...withPartMeta(fields),
  });
}

function nextPending(index: number, state: ChatDecodeState): string {
  const next = state.pending.take();
  if (next !== undefined) return next;
  state.issues.push({
    code: 'orphan-result',
    severity: 'warning',
    message: `tool message ${index} names no call and follows no unanswered call; it gets the id result_${index}`,
    path: [...state.path, index],
  });
  return `result_${index}`;
}

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/**
 * A LLaMA-Factory tool message answering several calls holds one text part whose value is a JSON array with
 * one element per call: each element becomes the result of one call.
 */
function splitTyped(
  body: readonly ToolResultContentPart[],
  shape: ContentShape,
  pending: number,
): ToolResultContentPart[] | undefined {
  const only = body[0];
  if (pending < 2 || shape !== 'parts' || body.length !== 1 || only?.type !== 'text') return undefined;
  const meta = partMeta(only);
  if (meta?.['field'] !== 'value' || meta['extra'] !== undefined) return undefined;
  const elements = splitJsonArray(only.text);
  if (elements?.length !== pending) return undefined;
  return elements.map((text) => ({ type: 'text', text, ...withPartMeta({ field: 'value' }) }));
}
