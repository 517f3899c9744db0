import { Queue } from '../../model/arrays.js';
import type { Part, ToolCallPart } from '../../model/part.js';
import type { DecodeIssue } from '../codec.js';
import { unmarkResult } from '../portable/tool-error.js';
import {
  type CallNameLookup,
  callFromJson,
  callJson,
  reasoningFromBody,
  renderHermesPart,
  resultFromBody,
} from './hermes-parts.js';
import { tryParseJson } from './json-text.js';
import { GPT_TAGS, splitTagged, type TagSegment, TOOL_TAGS } from './parse-hermes-tags.js';

/** Calls still waiting for results, in order; ShareGPT pairs results with calls by position. */
export interface PairingState {
  pending: Queue<{ readonly id: string; readonly name: string }>;
  readonly names: Map<string, string>;
  readonly issues: DecodeIssue[];
}

/** What a decoded value turns into: parts, plus the whole value when it must be kept to re-encode exactly. */
export interface DecodedValue {
  readonly parts: Part[];
  readonly raw?: string;
  readonly plain?: boolean;
}

/** Deterministic id of the `index`-th call of turn `turn` (never written back: ShareGPT has no call ids). */
export function callId(turn: number, index: number): string {
  return `sharegpt-call-${turn}-${index}`;
}

/**
 * Keeps what a fresh rendering would not reproduce: the piece's exact core text (when it differs from the Hermes
 * rendering of the part) and the whitespace around it (when it is not the usual single newline).
 */
function attachLayout(part: Part, segment: TagSegment, fresh: string | undefined, last: boolean): Part {
  const own: Record<string, string> = {};
  if (segment.core !== fresh) own['raw'] = segment.core;
  if (segment.sep !== (last ? '' : '\n')) own['sep'] = segment.sep;
  if (segment.lead !== '') own['lead'] = segment.lead;
  return Object.keys(own).length === 0 ? part : { ...part, meta: { ...part.meta, sharegpt: own } };
}

function startCalls(state: PairingState, calls: readonly ToolCallPart[], turn: number): void {
  for (const left of state.pending) {
    state.issues.push({
      code: 'missing-result',
      severity: 'warning',
      message: `tool call ${left.name} (${left.id}) has no result before the next call`,
      path: ['conversations', turn],
    });
  }
  state.pending = new Queue(calls.map((call) => ({ id: call.id, name: call.name })));
  for (const call of calls) state.names.set(call.id, call.name);
}

function nextCallId(state: PairingState, turn: number, index: number): string {
  const next = state.pending.take();
  if (next !== undefined) return next.id;
  state.issues.push({
    code: 'orphan-result',
    severity: 'warning',
    message: `turn ${turn} holds a tool result that answers no pending tool call`,
    path: ['conversations', turn],
  });
  return `sharegpt-orphan-${turn}-${index}`;
}

const nameLookup =
  (state: PairingState): CallNameLookup =>
  (id) =>
    state.names.get(id);

/** Decodes a `gpt` value: `<think>` → reasoning, `<tool_call>` → tool calls, everything else → text. */
export function decodeAssistantValue(value: string, turn: number, state: PairingState): DecodedValue {
  const segments = splitTagged(value, GPT_TAGS);
  if (segments === undefined) return { parts: value === '' ? [] : [{ type: 'text', text: value }] };
  const calls: ToolCallPart[] = [];
  const parts = segments.map((segment, index) => {
    const part = assistantSegmentPart(segment, callId(turn, calls.length), state, turn);
    if (part.type === 'tool-call') calls.push(part);
    return attachLayout(
      part,
      segment,
      renderHermesPart(part, nameLookup(state)),
      index === segments.length - 1,
    );
  });
  if (calls.length > 0) startCalls(state, calls, turn);
  return { parts };
}

/** The part one piece of a `gpt` value stands for. */
export function assistantSegmentPart(
  segment: TagSegment,
  id: string,
  state: PairingState | undefined,
  turn: number,
): Part {
  if (segment.kind === 'think') return reasoningFromBody(segment.body);
  if (segment.kind === 'tool_call') {
    const call = callFromJson(segment.body, id);
    if (call !== undefined) return call;
    state?.issues.push({
      code: 'invalid-arguments',
      severity: 'warning',
      message: `turn ${turn} has a <tool_call> that is not a JSON {"name", "arguments"} object; it was kept as text`,
      path: ['conversations', turn, 'value'],
    });
    return { type: 'text', text: segment.core };
  }
  return { type: 'text', text: segment.body };
}

/** Decodes a glaive `function_call` value: one JSON call, or an array of calls. */
export function decodeFunctionCallValue(value: string, turn: number, state: PairingState): DecodedValue {
  const parsed = tryParseJson(value);
  const calls =
    parsed !== undefined && Array.isArray(parsed.value)
      ? parsed.value.map((item: unknown, index) => callFromJson(JSON.stringify(item), callId(turn, index)))
      : [callFromJson(value, callId(turn, 0))];
  const good = calls.filter((call): call is ToolCallPart => call !== undefined);
  if (good.length === 0 || good.length !== calls.length) {
    state.issues.push({
      code: 'invalid-arguments',
      severity: 'warning',
      message: `turn ${turn} is a function_call whose value is not a JSON call; it was kept as text`,
      path: ['conversations', turn, 'value'],
    });
    return { parts: value === '' ? [] : [{ type: 'text', text: value }] };
  }
  startCalls(state, good, turn);
  return renderFunctionCalls(good) === value ? { parts: good } : { parts: good, raw: value };
}

/** The glaive `function_call` value of calls: one JSON object, or a JSON array for several. */
export function renderFunctionCalls(calls: readonly ToolCallPart[]): string {
  if (calls.length === 1) return callJson(calls[0] as ToolCallPart);
  return `[${calls.map(callJson).join(', ')}]`;
}

/** Decodes a `tool` value: `<tool_response>` blocks paired in order with pending calls, or one plain result. */
export function decodeToolValue(value: string, turn: number, state: PairingState): DecodedValue {
  const segments = splitTagged(value, TOOL_TAGS);
  if (segments === undefined) return decodePlainResult(value, turn, state);
  let results = 0;
  const parts = segments.map((segment, index) => {
    const part =
      segment.kind === 'tool_response'
        ? resultFromBody(segment.body, nextCallId(state, turn, results++))
        : ({ type: 'text', text: segment.body } as const);
    return attachLayout(
      part,
      segment,
      renderHermesPart(part, nameLookup(state)),
      index === segments.length - 1,
    );
  });
  return { parts };
}

/** Decodes a value that is one whole tool result (glaive `observation`, untagged tool turns). */
export function decodePlainResult(value: string, turn: number, state: PairingState): DecodedValue {
  const id = nextCallId(state, turn, 0);
  return {
    parts: [unmarkResult({ type: 'tool-result', callId: id, content: [{ type: 'text', text: value }] })],
    plain: true,
  };
}
