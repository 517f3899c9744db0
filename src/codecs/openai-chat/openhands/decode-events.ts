import type { JsonValue } from '../../../model/json.js';
import type { Message } from '../../../model/message.js';
import type { DecodeIssue } from '../../codec.js';
import { asJson, isWireObject } from '../../wire-object.js';
import { classifyEvent, type EventState, eventParts } from './event-view.js';

/** Messages read from an OpenHands event stream, and the events that are not messages (with their positions). */
export interface DecodedEvents {
  readonly messages: Message[];
  /** `{ at, event }` for every event outside the message view; written back in place on encode. */
  readonly skipped: JsonValue[];
  readonly issues: DecodeIssue[];
}

/**
 * Reads an OpenHands event stream (replay trajectory or eval `history`) as messages: user and agent message
 * actions become user/assistant text, the system action the system prompt, actions with tool-call metadata
 * assistant tool calls taken from the raw model response, observations with tool-call metadata tool results,
 * error observations without one user text. State changes, recalls and the like stay out of the message view
 * and are kept, with their positions, for re-encoding.
 */
export function decodeEvents(events: readonly unknown[], path: readonly (string | number)[]): DecodedEvents {
  const state: EventState = { responses: new Set(), legacyPending: [] };
  const messages: Message[] = [];
  const skipped: JsonValue[] = [];
  const issues: DecodeIssue[] = [];
  events.forEach((event, index) => {
    if (!isWireObject(event)) {
      issues.push({
        code: 'unknown-record',
        severity: 'warning',
        message: `event ${index} is not an object; it is kept as is`,
        path: [...path, index],
      });
      skipped.push({ at: index, event: asJson(event) });
      return;
    }
    const info = classifyEvent(event, index, state);
    if (info === undefined) {
      skipped.push({ at: index, event: asJson(event) });
      return;
    }
    const { role, parts } = eventParts(event, info);
    messages.push({
      role,
      parts,
      meta: {
        origin: { format: 'openai', wire: event, parts },
        codec: { openai: { ...info, event: asJson(event), at: index } },
      },
    });
  });
  return { messages, skipped, issues };
}
