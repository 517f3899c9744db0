import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import { callTypesOf, encodeMessageItems } from './encode-items.js';
import { ordered } from './encode-parts.js';
import { hasIntactOrigin, messageFields, metaObject, metaString, RESPONSES } from './meta.js';

/**
 * Encodes a transcript as the Responses API conversation it was read from: an item list, a request body (every
 * field but `instructions` and `input` kept as it was) or a response object (items before the first one read
 * from `output` go to `input` when the object had one). Untouched messages are their original items; a
 * transcript from another format becomes a request `{instructions?, input}`, its leading system messages joined
 * into `instructions`.
 */
export function encodeResponses(transcript: Transcript): unknown {
  const origin = transcript.meta?.origin;
  if (origin?.format === RESPONSES && origin.messages === transcript.messages) return origin.wire;
  const fields = transcript.meta?.codec?.[RESPONSES];
  const envelope = metaString(fields, 'envelope');
  const messages = transcript.messages;
  const ownInstructions = messages.find((message) => messageFields(message)['instructions'] === true);
  const leading = envelope === undefined ? leadingSystem(messages) : [];
  const instructionMessages = ownInstructions === undefined ? leading : [ownInstructions];
  // A set: a transcript can open with thousands of system messages, and each message is looked up once.
  const joined = new Set(instructionMessages);
  const conversation = messages.filter((message) => !joined.has(message));
  const callTypes = callTypesOf(messages);
  const itemsOf = (message: Message): unknown[] =>
    hasIntactOrigin(message, RESPONSES) && Array.isArray(message.meta?.origin?.wire)
      ? (message.meta?.origin?.wire as unknown[])
      : encodeMessageItems(message, { callTypes });
  if (envelope === 'items') return conversation.flatMap(itemsOf);
  const instructions =
    instructionMessages.length === 0 ? undefined : instructionMessages.map(systemText).join('\n\n');
  const values: Record<string, unknown> = { ...metaObject(fields, 'rest') };
  if (instructions !== undefined) values['instructions'] = instructions;
  if (envelope === 'response') {
    const split = conversation.findIndex((message) => messageFields(message)['output'] === true);
    const before = split === -1 ? [] : conversation.slice(0, split);
    const after = split === -1 ? conversation : conversation.slice(split);
    if (fields?.['input'] === true || before.length > 0) values['input'] = before.flatMap(itemsOf);
    values['output'] = after.flatMap(itemsOf);
  } else {
    values['input'] = inputOf(conversation, itemsOf);
  }
  return ordered(fields?.['keys'] ?? ['instructions', 'input'], values) as JsonObject;
}

/** A request's `input`: the original string while the only message is the untouched string input. */
function inputOf(conversation: readonly Message[], itemsOf: (message: Message) => unknown[]): unknown {
  const only = conversation[0];
  if (
    conversation.length === 1 &&
    only !== undefined &&
    messageFields(only)['inputString'] === true &&
    hasIntactOrigin(only, RESPONSES)
  ) {
    return only.meta?.origin?.wire;
  }
  return conversation.flatMap((message) =>
    messageFields(message)['inputString'] === true && hasIntactOrigin(message, RESPONSES)
      ? [{ role: 'user', content: message.meta?.origin?.wire }]
      : itemsOf(message),
  );
}

function leadingSystem(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role !== 'system') break;
    out.push(message);
  }
  return out;
}

function systemText(message: Message): string {
  return message.parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}
