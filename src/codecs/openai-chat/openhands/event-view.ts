import type { JsonObject, JsonValue } from '../../../model/json.js';
import type { Part, ToolCallPart, ToolResultPart } from '../../../model/part.js';
import type { Role } from '../../../model/role.js';
import { isWireObject, stringField, type WireObject } from '../../wire-object.js';
import { argumentsText } from '../tool-calls.js';

/**
 * How an OpenHands event reads as a message, decided once while walking the stream and stored with the message
 * so the same event can be read again (to tell whether a transform changed it) without the stream around it.
 * - `text`: a message, system prompt or error observation; `field` names where the text is.
 * - `call`: an action the model chose through a tool call; `text` says whether the response's text is shown
 *   here (only on the first action of a response).
 * - `result`: an observation answering a tool call.
 * - `legacy-call` / `legacy-result`: old event streams without tool-call metadata; `callId` is synthesized.
 */
export type EventInfo = JsonObject;

/** Stream state while classifying events. */
export interface EventState {
  readonly responses: Set<string>;
  legacyPending: string[];
}

/** Decides how an event reads as a message, or `undefined` when it is not part of the conversation. */
export function classifyEvent(event: WireObject, index: number, state: EventState): EventInfo | undefined {
  const metadata = event['tool_call_metadata'];
  const hasCall = isWireObject(metadata) && typeof metadata['tool_call_id'] === 'string';
  const action = stringField(event, 'action');
  const legacy = event['source'] === undefined;
  if (action !== undefined) {
    if (hasCall) {
      const responseId = stringField(modelResponse(event) ?? {}, 'id');
      const first = responseId === undefined || !state.responses.has(responseId);
      if (responseId !== undefined) state.responses.add(responseId);
      return { kind: 'call', text: first };
    }
    if (action === 'system') return textInfo(event, 'system');
    if (action === 'message') return textInfo(event, event['source'] === 'agent' ? 'assistant' : 'user');
    if (legacy && (typeof event['command'] === 'string' || typeof event['code'] === 'string')) {
      const callId = `call_event_${index}`;
      state.legacyPending = [callId];
      return { kind: 'legacy-call', callId };
    }
    if (legacy && typeof event['thought'] === 'string') return textInfo(event, 'assistant', 'thought');
    return undefined;
  }
  if (stringField(event, 'observation') === undefined) return undefined;
  if (hasCall) return { kind: 'result' };
  if (event['observation'] === 'error') return textInfo(event, 'user');
  const callId = legacy ? state.legacyPending.shift() : undefined;
  return callId === undefined ? undefined : { kind: 'legacy-result', callId };
}

const TEXT_FIELDS = ['args.content', 'content', 'message'] as const;

function textInfo(event: WireObject, role: Role, only?: string): EventInfo | undefined {
  const field = only ?? TEXT_FIELDS.find((name) => typeof readField(event, name) === 'string');
  if (field === undefined) return undefined;
  const text = readField(event, field);
  if (typeof text !== 'string' || text === '') return undefined;
  return { kind: 'text', role, field, mirror: field !== 'message' && event['message'] === text };
}

/** A dotted field of an event (`args.content`). */
export function readField(event: WireObject, field: string): unknown {
  let value: unknown = event;
  for (const key of field.split('.')) value = isWireObject(value) ? value[key] : undefined;
  return value;
}

/** The assistant message of the model response an action came from. */
export function responseMessage(event: WireObject): WireObject | undefined {
  const choices = modelResponse(event)?.['choices'];
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isWireObject(first) ? first['message'] : undefined;
  return isWireObject(message) ? message : undefined;
}

function modelResponse(event: WireObject): WireObject | undefined {
  const metadata = event['tool_call_metadata'];
  const response = isWireObject(metadata) ? metadata['model_response'] : undefined;
  return isWireObject(response) ? response : undefined;
}

/** The role and parts an event reads as, given its stored {@link EventInfo}. */
export function eventParts(event: WireObject, info: EventInfo): { role: Role; parts: Part[] } {
  const metadata = isWireObject(event['tool_call_metadata']) ? event['tool_call_metadata'] : {};
  const callId = stringField(metadata, 'tool_call_id') ?? String(info['callId'] ?? '');
  switch (info['kind']) {
    case 'text': {
      const text = readField(event, String(info['field']));
      return {
        role: info['role'] as Role,
        parts: [{ type: 'text', text: typeof text === 'string' ? text : '' }],
      };
    }
    case 'call': {
      const response = responseMessage(event);
      const text =
        info['text'] === true && response !== undefined ? stringField(response, 'content') : undefined;
      const call =
        responseCall(response, callId) ?? fallbackCall(event, callId, stringField(metadata, 'function_name'));
      return { role: 'assistant', parts: [...textParts(text), call] };
    }
    case 'result':
      return { role: 'tool', parts: [result(callId, stringField(metadata, 'function_name'), event)] };
    case 'legacy-call': {
      const args =
        typeof event['command'] === 'string' ? { command: event['command'] } : { code: event['code'] };
      const call: ToolCallPart = {
        type: 'tool-call',
        id: callId,
        name: stringField(event, 'action') ?? 'run',
        arguments: JSON.stringify(args),
      };
      return { role: 'assistant', parts: [...textParts(stringField(event, 'thought')), call] };
    }
    default:
      return { role: 'tool', parts: [result(callId, stringField(event, 'observation'), event)] };
  }
}

function textParts(text: string | undefined): Part[] {
  return text === undefined || text === '' ? [] : [{ type: 'text', text }];
}

function responseCall(response: WireObject | undefined, id: string): ToolCallPart | undefined {
  const calls = response?.['tool_calls'];
  if (!Array.isArray(calls)) return undefined;
  for (const call of calls) {
    if (!isWireObject(call) || call['id'] !== id || !isWireObject(call['function'])) continue;
    const name = stringField(call['function'], 'name');
    if (name === undefined) continue;
    return { type: 'tool-call', id, name, arguments: argumentsText(call['function']['arguments']) };
  }
  return undefined;
}

function fallbackCall(event: WireObject, id: string, name: string | undefined): ToolCallPart {
  const args = event['args'];
  return {
    type: 'tool-call',
    id,
    name: name ?? stringField(event, 'action') ?? 'action',
    arguments: JSON.stringify((args ?? {}) as JsonValue),
  };
}

function result(callId: string, name: string | undefined, event: WireObject): ToolResultPart {
  const content = stringField(event, 'content') ?? '';
  return {
    type: 'tool-result',
    callId,
    ...(name === undefined ? {} : { name }),
    content: content === '' ? [] : [{ type: 'text', text: content }],
  };
}
