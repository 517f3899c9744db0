import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import { reasoningTextPart } from '../portable/reasoning-text.js';
import { encodeCall, encodeContent, encodeOutput, type OutputOptions, ordered } from './encode-parts.js';
import { messageFields, metaObject, metaString, ownMeta, RESPONSES } from './meta.js';
import { encodeReasoning } from './reasoning.js';

/** The item type of every tool call in the messages, by call id (for choosing the output item type). */
export function callTypesOf(messages: readonly Message[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      out.set(part.id, metaString(ownMeta(part), 't') ?? 'function_call');
    }
  }
  return out;
}

/**
 * The items of one message, encoded from its parts (callers re-emit untouched messages from their origin):
 * - user and system messages: one `message` item each (system messages keep their wire role, `system` by
 *   default); tool results found in them go first as output items;
 * - assistant messages: their items in part order — consecutive text parts read from one `message` item stay
 *   one item, new text becomes `output_text` in a new one; reasoning read from a Responses item is written back
 *   (reasoning from another format becomes `<think>` text: the API accepts only its own items); calls keep their
 *   item type;
 * - tool messages: one output item per result, typed after the call it answers; other parts follow as a user
 *   message item.
 */
export function encodeMessageItems(message: Message, options: OutputOptions): JsonObject[] {
  const fields = messageFields(message, RESPONSES);
  const results = message.parts.filter((part): part is ToolResultPart => part.type === 'tool-result');
  const rest = message.parts.filter((part) => part.type !== 'tool-result');
  const outputs = results.map((part) => encodeOutput(part, options));
  switch (message.role) {
    case 'user':
    case 'system':
      return [...outputs, plainMessage(message.role, rest, metaObject(fields, 'envelope'))];
    case 'tool':
      return rest.length === 0 ? outputs : [...outputs, plainMessage('user', rest, undefined)];
    case 'assistant':
      return [...assistantItems(rest, metaObject(fields, 'envelopes')), ...outputs];
  }
}

function plainMessage(
  role: 'user' | 'system',
  parts: readonly Part[],
  envelope: JsonObject | undefined,
): JsonObject {
  const extra = metaObject(envelope, 'extra');
  const shape = metaString(envelope, 'shape');
  const content = encodeContent(parts, 'user', shape ?? (role === 'system' ? 'string' : undefined));
  if (extra === undefined) return { type: 'message', role, content };
  return ordered(envelope?.['keys'], { ...extra, content });
}

function assistantItems(given: readonly Part[], envelopes: JsonObject | undefined): JsonObject[] {
  // The API takes back only its own reasoning items: other reasoning goes out as `<think>` text (empty when only
  // its signature was kept, as Claude Code logs it), in the message item it was read from when it was read from
  // `<think>` text (its meta keeps the slot). Encrypted reasoning without text has no readable form: it is lost.
  const parts = given.map((part) =>
    part.type === 'reasoning' &&
    (part.text !== '' || part.data === undefined) &&
    encodeReasoning(part) === undefined
      ? { ...reasoningTextPart(part.text), ...(part.meta === undefined ? {} : { meta: part.meta }) }
      : part,
  );
  const items: JsonObject[] = [];
  let group: { slot: number | undefined; parts: Part[] } | undefined;
  const flush = (): void => {
    if (group === undefined) return;
    items.push(
      assistantMessage(
        group.parts,
        group.slot === undefined ? undefined : metaObject(envelopes, String(group.slot)),
      ),
    );
    group = undefined;
  };
  for (const part of parts) {
    if (isContentPart(part)) {
      const slot = slotOf(part);
      if (group !== undefined && group.slot !== slot) flush();
      group ??= { slot, parts: [] };
      group.parts.push(part);
      continue;
    }
    flush();
    const item = modelItem(part);
    if (item !== undefined) items.push(item);
  }
  flush();
  return items;
}

function assistantMessage(parts: readonly Part[], envelope: JsonObject | undefined): JsonObject {
  const extra = metaObject(envelope, 'extra');
  const content = encodeContent(parts, 'assistant', metaString(envelope, 'shape') ?? 'parts');
  if (extra === undefined) return { type: 'message', role: 'assistant', content };
  return ordered(envelope?.['keys'], { ...extra, content });
}

/** Parts that live inside a message item's content (text, images, content-level opaque parts, foreign opaque). */
function isContentPart(part: Part): boolean {
  if (part.type === 'text' || part.type === 'image') return true;
  return part.type === 'opaque' && ownMeta(part)?.['whole'] !== true;
}

function slotOf(part: Part): number | undefined {
  const slot = ownMeta(part)?.['slot'];
  return typeof slot === 'number' ? slot : undefined;
}

function modelItem(part: Part): JsonObject | undefined {
  switch (part.type) {
    case 'reasoning':
      return encodeReasoning(part);
    case 'tool-call':
      return encodeCall(part);
    case 'opaque':
      return isJsonObject(part.value)
        ? part.value
        : ({ type: part.kind, value: part.value } as JsonValue as JsonObject);
    default:
      return undefined;
  }
}
