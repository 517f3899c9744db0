import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import type { Transcript } from '../../model/transcript.js';
import { RAW_MESSAGE_KIND } from './decode.js';
import {
  type CallNameLookup,
  encodeAssistantPart,
  encodeToolResult,
  encodeUserPart,
} from './encode-parts.js';
import { AI, ownMeta, withWireMeta } from './wire-meta.js';

/**
 * Encodes a transcript as AI SDK v6 messages: `{ "messages": ModelMessage[] }` (or the bare array / the
 * original wrapper object it was read from). Untouched messages are the very objects read. Changed and foreign
 * messages are built from their parts: system content as one string; user content as parts (or the string it
 * was); assistant images as `file` parts; tool results with `toolName` from the result or its call and an
 * output of the kept type when it still fits (else `text`, `error-text` or `content`).
 *
 * Lossy by design: opaque parts from other formats are dropped (the AI SDK has no slot for them); text in a
 * tool message is moved to a user message right after it (tool messages hold only results); an error result
 * with images loses its error flag and one with several texts is written as one joined `error-text`; a reasoning part's signature is written as `providerOptions.anthropic`.
 */
export function encodeAiSdk(transcript: Transcript): JsonValue {
  const origin = transcript.meta?.origin;
  if (origin?.format === 'ai-sdk' && origin.messages === transcript.messages) return origin.wire as JsonValue;
  const codec = transcript.meta?.codec?.[AI];
  if (codec?.['entry'] !== undefined) return codec['entry'];
  const names = new Map<string, string>();
  for (const message of transcript.messages) {
    for (const part of message.parts) if (part.type === 'tool-call') names.set(part.id, part.name);
  }
  const nameOf: CallNameLookup = (id) => names.get(id);
  const messages = transcript.messages.flatMap((message) => encodeMessage(message, nameOf));
  if (codec?.['bare'] === true) return messages;
  const fields = isJsonObject(codec?.['fields']) ? codec['fields'] : {};
  return { ...fields, messages };
}

function encodeMessage(message: Message, nameOf: CallNameLookup): JsonValue[] {
  const origin = message.meta?.origin;
  if (origin?.format === 'ai-sdk' && origin.parts === message.parts) return [origin.wire as JsonValue];
  const only = message.parts[0];
  if (
    message.parts.length === 1 &&
    only?.type === 'opaque' &&
    only.kind === RAW_MESSAGE_KIND &&
    ownMeta(only.meta)?.['wire'] === true
  ) {
    return [only.value];
  }
  const own = ownMeta(message.meta?.codec);
  const wrap = (role: string, content: JsonValue): JsonObject => withWireMeta({ role, content }, own);
  const kept = keptItems(message);
  const reuse =
    (encode: (part: Part) => JsonValue | undefined) =>
    (part: Part): JsonValue | undefined =>
      kept.get(part) ?? encode(part);
  switch (message.role) {
    case 'system':
      return [wrap('system', textOf(message.parts))];
    case 'user':
      return [wrap('user', stringOrParts(message.parts, own, reuse(encodeUserPart)))];
    case 'assistant':
      return [wrap('assistant', stringOrParts(message.parts, own, reuse(encodeAssistantPart)))];
    case 'tool':
      return encodeTool(message.parts, own, (part) => kept.get(part) ?? encodeToolResult(part, nameOf));
  }
}

/** The wire content items of a changed message's untouched parts (each part was decoded from one item). */
function keptItems(message: Message): Map<Part, JsonValue> {
  const kept = new Map<Part, JsonValue>();
  const origin = message.meta?.origin;
  const content = isJsonObject(origin?.wire) ? origin.wire['content'] : undefined;
  if (origin?.format !== 'ai-sdk' || !Array.isArray(content) || content.length !== origin.parts.length)
    return kept;
  origin.parts.forEach((part, index) => {
    kept.set(part, content[index] as JsonValue);
  });
  return kept;
}

function textOf(parts: readonly Part[]): string {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function stringOrParts(
  parts: readonly Part[],
  own: JsonObject | undefined,
  encode: (part: Part) => JsonValue | undefined,
): JsonValue {
  const only = parts[0];
  if (own?.['contentString'] === true && parts.length === 1 && only?.type === 'text') return only.text;
  return parts.flatMap((part) => {
    const wire = encode(part);
    return wire === undefined ? [] : [wire];
  });
}

/** A tool message holds only results (and carried approval responses); other text goes to a user message after it. */
function encodeTool(
  parts: readonly Part[],
  own: JsonObject | undefined,
  encodeResult: (part: ToolResultPart) => JsonValue,
): JsonValue[] {
  const content: JsonValue[] = [];
  const spill: Part[] = [];
  for (const part of parts) {
    if (part.type === 'tool-result') content.push(encodeResult(part));
    else if (part.type === 'opaque' && ownMeta(part.meta)?.['wire'] === true) content.push(part.value);
    else spill.push(part);
  }
  const out: JsonValue[] = [];
  if (content.length > 0 || spill.length === 0) out.push(withWireMeta({ role: 'tool', content }, own));
  if (spill.length > 0) {
    const userContent = spill.flatMap((part) => {
      const wire = encodeUserPart(part);
      return wire === undefined ? [] : [wire];
    });
    out.push({ role: 'user', content: userContent });
  }
  return out;
}
