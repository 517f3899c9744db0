import { Queue } from '../../model/arrays.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import type { DecodeIssue, DecodeResult } from '../codec.js';
import {
  type DecodedValue,
  decodeAssistantValue,
  decodeFunctionCallValue,
  decodePlainResult,
  decodeToolValue,
  type PairingState,
} from './decode-turn.js';
import { meaningOf } from './roles.js';

/** Kind of the opaque part that carries a turn the codec could not read, written back as it was. */
export const RAW_TURN_KIND = 'sharegpt-turn';

/**
 * Decodes one ShareGPT entry (`{"conversations": [{"from", "value"}…], …}`). Every turn becomes one message;
 * entry fields other than `conversations` (tools, system, timestamp, model, completed…) are kept in the
 * transcript's codec meta, with `conversations` as a `null` placeholder that keeps its key position. Hermes
 * tags are parsed into reasoning, tool calls and tool results; calls get deterministic ids
 * (`sharegpt-call-<turn>-<n>`) and results are paired with calls in order. Never throws.
 */
export function decodeShareGpt(wire: unknown): DecodeResult<Transcript> {
  const issues: DecodeIssue[] = [];
  if (!isJsonObject(wire) || !Array.isArray(wire['conversations'])) {
    issues.push({
      code: 'invalid-shape',
      severity: 'error',
      message: 'a ShareGPT entry is an object with a "conversations" array; this entry was kept as it is',
      path: [],
    });
    const transcript: Transcript = {
      messages: [],
      meta: { format: 'sharegpt', codec: { sharegpt: { entry: (wire ?? null) as JsonValue } } },
    };
    return { value: transcript, issues };
  }
  const state: PairingState = { pending: new Queue(), names: new Map(), issues };
  const turns = wire['conversations'] as readonly unknown[];
  const messages = turns.map((turn, index) => decodeTurn(turn, index, state));
  for (const left of state.pending) {
    issues.push({
      code: 'missing-result',
      severity: 'warning',
      message: `tool call ${left.name} (${left.id}) has no result`,
      path: ['conversations'],
    });
  }
  const fields: Record<string, JsonValue | undefined> = {};
  for (const [key, value] of Object.entries(wire)) fields[key] = key === 'conversations' ? null : value;
  const transcript: Transcript = {
    messages,
    meta: {
      format: 'sharegpt',
      origin: { format: 'sharegpt', wire, messages },
      codec: { sharegpt: { fields } },
    },
  };
  return { value: transcript, issues };
}

function decodeTurn(turn: unknown, index: number, state: PairingState): Message {
  if (!isJsonObject(turn) || typeof turn['from'] !== 'string' || typeof turn['value'] !== 'string') {
    state.issues.push({
      code: 'invalid-shape',
      severity: 'error',
      message: `turn ${index} is not a {"from": string, "value": string} object; it was kept as it is`,
      path: ['conversations', index],
    });
    const from = isJsonObject(turn) ? turn['from'] : undefined;
    const role = typeof from === 'string' ? meaningOf(from).role : 'user';
    const parts = [{ type: 'opaque', kind: RAW_TURN_KIND, value: (turn ?? null) as JsonValue } as const];
    return { role, parts, meta: { origin: { format: 'sharegpt', wire: turn, parts } } };
  }
  const from = turn['from'];
  const value = turn['value'];
  const meaning = meaningOf(from);
  if (!meaning.known) {
    state.issues.push({
      code: 'unknown-role',
      severity: 'warning',
      message: `turn ${index} comes from "${from}", which is read as a user turn`,
      path: ['conversations', index, 'from'],
    });
  }
  const decoded = decodeValue(value, meaning.role, meaning.style, index, state);
  const codec: Record<string, JsonValue> = { from };
  const extra = extraKeys(turn);
  if (extra !== undefined) codec['extra'] = extra;
  if (decoded.raw !== undefined) codec['raw'] = decoded.raw;
  if (decoded.plain === true && meaning.style !== 'plain') codec['plain'] = true;
  return {
    role: meaning.role,
    parts: decoded.parts,
    meta: { origin: { format: 'sharegpt', wire: turn, parts: decoded.parts }, codec: { sharegpt: codec } },
  };
}

function decodeValue(
  value: string,
  role: Message['role'],
  style: ReturnType<typeof meaningOf>['style'],
  index: number,
  state: PairingState,
): DecodedValue {
  if (role === 'tool') {
    return style === 'plain' ? decodePlainResult(value, index, state) : decodeToolValue(value, index, state);
  }
  if (style === 'function-call') return decodeFunctionCallValue(value, index, state);
  if (role === 'assistant') return decodeAssistantValue(value, index, state);
  return { parts: value === '' ? [] : [{ type: 'text', text: value }] };
}

function extraKeys(turn: JsonObject): JsonObject | undefined {
  const extra: Record<string, JsonValue | undefined> = {};
  let any = false;
  for (const [key, item] of Object.entries(turn)) {
    if (key === 'from' || key === 'value') continue;
    extra[key] = item;
    any = true;
  }
  return any ? extra : undefined;
}
