import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import { applyToolIds, planToolIds } from '../portable/tool-ids.js';
import { ANTHROPIC_TOOL_ID } from '../provider-rules/anthropic-rules.js';
import { encodeSystem } from './encode-system.js';
import { messageUnit, type Unit } from './encode-unit.js';
import { mergeUnits } from './merge-units.js';
import { messageMeta, metaObject } from './meta.js';

/** The user turn put before a conversation from elsewhere that starts with the assistant. */
export const OPENING_USER_TEXT = '(continued)';

/**
 * Encodes a transcript as an Anthropic Messages request `{system?, messages, …}` (the keys read with it, such as
 * model and tools, come back in place). Leading system messages become `system`; tool messages and the user
 * message after them become one user message with the tool_result blocks first; assistant tool calls become
 * tool_use blocks (ids Anthropic rejects rewritten, calls and results alike); unsigned reasoning becomes `<think>`
 * text; a conversation from elsewhere that opens with the assistant gets a short user turn first. An untouched
 * transcript is its original wire value.
 */
export function encodeAnthropic(transcript: Transcript): unknown {
  const origin = transcript.meta?.origin;
  if (origin?.format === 'anthropic' && origin.messages === transcript.messages) return origin.wire;
  const meta = transcript.meta?.codec?.anthropic;
  const envelope = meta?.['envelope'];
  if (envelope === 'verbatim' && transcript.messages.length === 0) return meta?.['value'];
  const plan = planToolIds(
    transcript.messages,
    ANTHROPIC_TOOL_ID,
    (message) => messageMeta(message) !== undefined,
  );
  const all = applyToolIds(transcript.messages, plan);
  const leading = leadingSystem(all);
  const system = encodeSystem(all.slice(0, leading));
  const messages = encodeConversation(all.slice(leading));
  if (envelope === 'array' && system === undefined) return messages;
  const out: Record<string, unknown> = { ...(envelope === 'request' ? metaObject(meta, 'rest') : {}) };
  if (system === undefined) delete out['system'];
  else out['system'] = system;
  out['messages'] = messages;
  return out;
}

function leadingSystem(messages: readonly Message[]): number {
  let count = 0;
  while (messages[count]?.role === 'system') count++;
  return count;
}

/** The wire messages of the conversation after the system prompt. */
export function encodeConversation(messages: readonly Message[]): unknown[] {
  const units: Unit[] = [];
  for (const message of messages) {
    const unit = messageUnit(message);
    if (unit !== undefined) units.push(unit);
  }
  const merged = mergeUnits(units);
  const first = merged[0];
  const wire = merged.map(wireMessage);
  if (first !== undefined && first.role === 'assistant' && first.group === undefined) {
    wire.unshift({ role: 'user', content: OPENING_USER_TEXT });
  }
  return wire;
}

function wireMessage(unit: Unit): unknown {
  if ('verbatim' in unit) return unit.verbatim;
  if (unit.intact !== undefined && unit.members === unit.split) return unit.intact;
  const out: Record<string, unknown> = {
    ...(unit.unknownRole === true ? {} : { role: unit.role }),
    ...unit.extra,
  };
  if (unit.noContent !== true) out['content'] = 'content' in unit ? unit.content : unit.blocks;
  return out;
}
