import type { JsonObject } from '../../../model/json.js';
import type { Message } from '../../../model/message.js';
import { messageText, toolCallsOf, toolResultsOf, toolResultText } from '../../../model/message-helpers.js';
import { parseNestedJson } from '../../json-depth.js';
import { isWireObject, type WireObject } from '../../wire-object.js';
import { responseMessage } from './event-view.js';

type Mutable = Record<string, unknown>;

/**
 * The event a changed message stands for, made by writing the message's new text, arguments or result into a
 * copy of the event it was read from. `undefined` when the message no longer fits that event (another role,
 * other calls), in which case the encoder writes fresh events instead.
 */
export function patchEvent(event: WireObject, info: JsonObject, message: Message): unknown {
  const copy = structuredClone(event) as Mutable;
  switch (info['kind']) {
    case 'text':
      return patchText(copy, info, message);
    case 'call':
      return patchCall(copy, info, message);
    case 'legacy-call':
      return patchLegacyCall(copy, message);
    case 'result':
    case 'legacy-result':
      return patchResult(copy, message);
    default:
      return undefined;
  }
}

function onlyTypes(message: Message, types: readonly string[]): boolean {
  return message.parts.every((part) => types.includes(part.type));
}

function patchText(copy: Mutable, info: JsonObject, message: Message): unknown {
  if (message.role !== info['role'] || !onlyTypes(message, ['text'])) return undefined;
  const text = messageText(message);
  const path = String(info['field']).split('.');
  let target: unknown = copy;
  for (const key of path.slice(0, -1)) target = isWireObject(target) ? target[key] : undefined;
  if (!isWireObject(target)) return undefined;
  (target as Mutable)[path[path.length - 1] as string] = text;
  if (info['mirror'] === true) copy['message'] = text;
  return copy;
}

function patchCall(copy: Mutable, info: JsonObject, message: Message): unknown {
  const calls = toolCallsOf(message);
  const call = calls[0];
  if (message.role !== 'assistant' || calls.length !== 1 || call === undefined) return undefined;
  if (!onlyTypes(message, ['text', 'tool-call'])) return undefined;
  const response = responseMessage(copy) as Mutable | undefined;
  const entries = response?.['tool_calls'];
  if (response === undefined || !Array.isArray(entries)) return undefined;
  const entry = entries.find((item) => isWireObject(item) && item['id'] === call.id) as Mutable | undefined;
  if (entry === undefined || !isWireObject(entry['function'])) return undefined;
  const text = messageText(message);
  if (info['text'] === true) response['content'] = text === '' ? null : text;
  else if (text !== '') return undefined;
  entry['function'] = { ...entry['function'], name: call.name, arguments: call.arguments };
  return copy;
}

function patchLegacyCall(copy: Mutable, message: Message): unknown {
  const calls = toolCallsOf(message);
  const call = calls[0];
  if (message.role !== 'assistant' || calls.length !== 1 || call === undefined) return undefined;
  if (!onlyTypes(message, ['text', 'tool-call'])) return undefined;
  let args: unknown;
  try {
    args = parseNestedJson(call.arguments);
  } catch {
    return undefined;
  }
  if (!isWireObject(args)) return undefined;
  for (const key of ['command', 'code'])
    if (typeof args[key] === 'string' && key in copy) copy[key] = args[key];
  if ('thought' in copy) copy['thought'] = messageText(message);
  return copy;
}

function patchResult(copy: Mutable, message: Message): unknown {
  const results = toolResultsOf(message);
  const result = results[0];
  if (message.role !== 'tool' || results.length !== 1 || result === undefined) return undefined;
  copy['content'] = toolResultText(result.content);
  return copy;
}
