import { Queue } from '../../model/arrays.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart } from '../../model/part.js';
import type { Transcript } from '../../model/transcript.js';
import { markErrorContent } from '../portable/tool-error.js';
import { RAW_TURN_KIND } from './decode.js';
import { decodeFunctionCallValue, renderFunctionCalls } from './decode-turn.js';
import { renderValue, type ValueStyle } from './render-value.js';
import { defaultFrom, meaningOf } from './roles.js';

/**
 * Encodes a transcript as one ShareGPT entry. Untouched turns (and a whole untouched entry) are returned as the
 * very objects they were read from. Changed turns are rebuilt from their parts: kept raw texts of unchanged
 * pieces are reused, new pieces are written the Hermes way. Messages from other formats become Hermes turns
 * (`system`/`human`/`gpt`/`tool`, tool calls and results as tags, consecutive tool messages in one `tool` turn).
 *
 * Lossy by design (ShareGPT cannot say it): call ids, reasoning signatures, image bytes (written as `[image]`),
 * opaque parts from other formats (dropped), and whitespace around text that sits next to tags. A failed tool
 * result carries `[tool error] ` in front of its text instead of an error flag.
 */
export function encodeShareGpt(transcript: Transcript): JsonValue {
  const origin = transcript.meta?.origin;
  if (origin?.format === 'sharegpt' && origin.messages === transcript.messages)
    return origin.wire as JsonValue;
  const codec = transcript.meta?.codec?.sharegpt;
  if (codec !== undefined && codec['entry'] !== undefined) return codec['entry'];
  const names = callNames(transcript.messages);
  const nameOf = (id: string): string | undefined => names.get(id);
  const conversations: JsonValue[] = [];
  for (const message of turnsOf(transcript.messages)) conversations.push(encodeTurn(message, nameOf));
  const fields = isJsonObject(codec?.['fields']) ? codec['fields'] : undefined;
  return fields === undefined ? { conversations } : { ...fields, conversations };
}

function callNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool-call') names.set(part.id, part.name);
  }
  return names;
}

function codecOf(message: Message): JsonObject | undefined {
  return message.meta?.codec?.sharegpt;
}

/**
 * Groups messages into turns: one message per turn, except runs of foreign tool messages, which share one turn
 * with their results in the order of the calls they answer (ShareGPT pairs results with calls by position).
 */
function turnsOf(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  let run: Message[] | undefined;
  let calls: readonly string[] = [];
  for (const message of messages) {
    const foreignTool = message.role === 'tool' && codecOf(message) === undefined;
    if (foreignTool && run !== undefined) {
      run.push(message);
      continue;
    }
    if (run !== undefined) out[out.length - 1] = inCallOrder(run, calls);
    out.push(message);
    run = foreignTool ? [message] : undefined;
    if (message.role === 'assistant')
      calls = message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.id] : []));
  }
  if (run !== undefined) out[out.length - 1] = inCallOrder(run, calls);
  return out;
}

/** One tool message holding the run's parts, results sorted by the position of their call (others last). */
function inCallOrder(run: readonly Message[], calls: readonly string[]): Message {
  // The first position of each id, as indexOf would give it, looked up once per part rather than per comparison.
  const positions = new Map<string, number>();
  calls.forEach((id, index) => {
    if (!positions.has(id)) positions.set(id, index);
  });
  const parts = run
    .flatMap((message) => message.parts)
    .map((part, index) => ({
      part,
      index,
      rank: (part.type === 'tool-result' ? positions.get(part.callId) : undefined) ?? calls.length,
    }))
    .sort((left, right) => left.rank - right.rank || left.index - right.index)
    .map((item) => item.part);
  return { role: 'tool', parts };
}

function encodeTurn(message: Message, nameOf: (id: string) => string | undefined): JsonValue {
  const origin = message.meta?.origin;
  if (origin?.format === 'sharegpt' && origin.parts === message.parts) return origin.wire as JsonValue;
  const only = message.parts[0];
  if (message.parts.length === 1 && only?.type === 'opaque' && only.kind === RAW_TURN_KIND) return only.value;
  const parts = message.parts.map(markFailure);
  const codec = codecOf(message);
  const from = typeof codec?.['from'] === 'string' ? codec['from'] : defaultFrom(message.role);
  const value = encodeValue(parts, message.role, styleOf(from, codec), codec, nameOf);
  const extra = isJsonObject(codec?.['extra']) ? codec['extra'] : {};
  return { from, value, ...extra };
}

/** ShareGPT has no error flag: a failed result says so in its text. */
function markFailure(part: Part): Part {
  if (part.type !== 'tool-result' || part.isError !== true) return part;
  const { isError: _flag, ...rest } = part;
  return { ...rest, content: markErrorContent(part.content) };
}

function styleOf(from: string, codec: JsonObject | undefined): ValueStyle {
  if (codec?.['plain'] === true) return 'plain';
  return meaningOf(from).style;
}

function encodeValue(
  parts: readonly Part[],
  role: Message['role'],
  style: ValueStyle,
  codec: JsonObject | undefined,
  nameOf: (id: string) => string | undefined,
): string {
  if (style === 'function-call' && parts.length > 0 && parts.every((part) => part.type === 'tool-call')) {
    const calls = parts as readonly ToolCallPart[];
    const raw = codec?.['raw'];
    if (typeof raw === 'string' && sameCalls(raw, calls)) return raw;
    return renderFunctionCalls(calls);
  }
  return renderValue(parts, role, style, nameOf);
}

/** True when a kept function_call value still holds exactly these calls (names and arguments). */
function sameCalls(raw: string, calls: readonly ToolCallPart[]): boolean {
  const decoded = decodeCallsOf(raw);
  if (decoded === undefined || decoded.length !== calls.length) return false;
  return decoded.every((call, index) => {
    const other = calls[index];
    return other !== undefined && call.name === other.name && call.arguments === other.arguments;
  });
}

function decodeCallsOf(raw: string): ToolCallPart[] | undefined {
  const decoded = decodeFunctionCallValue(raw, 0, { pending: new Queue(), names: new Map(), issues: [] });
  const calls = decoded.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
  return calls.length === decoded.parts.length ? calls : undefined;
}
