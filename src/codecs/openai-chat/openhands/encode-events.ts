import { appendAll } from '../../../model/arrays.js';
import type { JsonValue } from '../../../model/json.js';
import { isJsonObject } from '../../../model/json.js';
import type { Message } from '../../../model/message.js';
import { isWireObject, jsonEqual } from '../../wire-object.js';
import { hasIntactOrigin, messageMeta } from '../meta.js';
import { eventParts } from './event-view.js';
import { patchEvent } from './patch-event.js';
import { synthesizeEvents } from './synthesize-event.js';

/**
 * Writes messages back as an OpenHands event stream. Events outside the message view go back to their original
 * positions relative to the messages that are still there (all of them are kept, even when the messages around
 * them were dropped). A message whose parts still read the same from its stored event is that event; a changed
 * one is patched into a copy of it; anything else gets fresh events.
 */
export function encodeEvents(messages: readonly Message[], skipped: readonly JsonValue[]): unknown[] {
  const others = skipped.filter(isJsonObject);
  const out: unknown[] = [];
  let next = 0;
  for (const message of messages) {
    const at = messageMeta(message)['at'];
    if (typeof at === 'number') {
      while (next < others.length && Number(others[next]?.['at']) < at) out.push(others[next++]?.['event']);
    }
    appendAll(out, eventsOf(message));
  }
  while (next < others.length) out.push(others[next++]?.['event']);
  return out;
}

function eventsOf(message: Message): unknown[] {
  if (hasIntactOrigin(message)) return [message.meta?.origin?.wire];
  const info = messageMeta(message);
  const event = info['event'];
  if (isWireObject(event) && typeof info['kind'] === 'string') {
    const again = eventParts(event, info);
    if (again.role === message.role && jsonEqual(again.parts, message.parts)) return [event];
    const patched = patchEvent(event, info, message);
    if (patched !== undefined) return [patched];
  }
  return synthesizeEvents(message);
}
