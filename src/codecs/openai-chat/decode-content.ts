import type { ImagePart, OpaquePart, Part, TextPart, ToolCallPart } from '../../model/part.js';
import { parseNestedJson } from '../json-depth.js';
import { asJson, extraKeys, isWireObject, stringField, type WireObject } from '../wire-object.js';
import { withPartMeta } from './meta.js';

/** How a message's `content` looked on the wire, so an unchanged shape is written back. */
export type ContentShape = 'string' | 'null' | 'absent' | 'parts' | 'other';

/** What decoding a content value needs from the message around it. */
export interface ContentContext {
  /** A fresh deterministic id for a typed `tool_call` part (LLaMA-Factory), which has none on the wire. */
  readonly nextCallId: () => string;
  /** Inside a tool result only text, images and opaque parts may appear. */
  readonly resultContent: boolean;
}

/** Decoded `content`: its parts and its wire shape. */
export interface DecodedContent {
  readonly parts: Part[];
  readonly shape: ContentShape;
}

/**
 * Decodes a chat message `content`: a string (empty string → no parts), `null`, absent, or an array of content
 * parts. Any other value is carried as one opaque part and written back as it was.
 */
export function decodeContent(content: unknown, context: ContentContext): DecodedContent {
  if (content === undefined) return { parts: [], shape: 'absent' };
  if (content === null) return { parts: [], shape: 'null' };
  if (typeof content === 'string') {
    return { parts: content === '' ? [] : [{ type: 'text', text: content }], shape: 'string' };
  }
  if (Array.isArray(content)) {
    return { parts: content.map((part) => decodeContentPart(part, context)), shape: 'parts' };
  }
  return { parts: [opaque('content', content)], shape: 'other' };
}

/**
 * One content part. OpenAI's `{type:'text', text}` and `{type:'image_url', image_url}` and the typed-value
 * dialect of LLaMA-Factory (`{type: 'text' | 'reasoning' | 'tool_call', value}`) are understood; anything else
 * (audio, files, refusals…) is opaque and travels verbatim.
 */
export function decodeContentPart(part: unknown, context: ContentContext): Part {
  if (!isWireObject(part)) return opaque('invalid', part);
  const type = stringField(part, 'type');
  if (type === 'text') return decodeText(part) ?? opaque(type, part);
  if (type === 'image_url') return decodeImage(part) ?? opaque(type, part);
  if (context.resultContent) return opaque(type ?? 'unknown', part);
  if (type === 'reasoning') {
    const value = stringField(part, 'value');
    if (value === undefined) return opaque(type, part);
    return {
      type: 'reasoning',
      text: value,
      ...withPartMeta({ field: 'value', extra: extraKeys(part, ['type', 'value']) }),
    };
  }
  if (type === 'tool_call') return decodeTypedCall(part, context) ?? opaque(type, part);
  return opaque(type ?? 'unknown', part);
}

function decodeText(part: WireObject): TextPart | undefined {
  const text = stringField(part, 'text');
  if (text !== undefined) {
    return { type: 'text', text, ...withPartMeta({ extra: extraKeys(part, ['type', 'text']) }) };
  }
  const value = stringField(part, 'value');
  if (value === undefined || 'text' in part) return undefined;
  return {
    type: 'text',
    text: value,
    ...withPartMeta({ field: 'value', extra: extraKeys(part, ['type', 'value']) }),
  };
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function decodeImage(part: WireObject): ImagePart | undefined {
  const imageUrl = part['image_url'];
  if (!isWireObject(imageUrl)) return undefined;
  const url = stringField(imageUrl, 'url');
  if (url === undefined) return undefined;
  const fields = {
    extra: extraKeys(part, ['type', 'image_url']),
    urlExtra: extraKeys(imageUrl, ['url']),
  };
  const data = DATA_URL.exec(url);
  if (data !== null) {
    return {
      type: 'image',
      source: { kind: 'base64', mediaType: data[1] as string, data: data[2] as string },
      ...withPartMeta(fields),
    };
  }
  return { type: 'image', source: { kind: 'url', url }, ...withPartMeta(fields) };
}

/** A LLaMA-Factory `{type:'tool_call', value:'{"name":…,"arguments":{…}}'}` part. */
function decodeTypedCall(part: WireObject, context: ContentContext): ToolCallPart | undefined {
  const value = stringField(part, 'value');
  if (value === undefined) return undefined;
  const call = parseTypedCall(value);
  if (call === undefined) return undefined;
  return {
    type: 'tool-call',
    id: context.nextCallId(),
    name: call.name,
    arguments: call.arguments,
    ...withPartMeta({ typed: value, synthetic: true, extra: extraKeys(part, ['type', 'value']) }),
  };
}

/** Name and argument text of a typed tool call's `value`, or `undefined` when it is not one. */
export function parseTypedCall(value: string): { name: string; arguments: string } | undefined {
  let parsed: unknown;
  try {
    parsed = parseNestedJson(value);
  } catch {
    return undefined;
  }
  if (!isWireObject(parsed)) return undefined;
  const name = stringField(parsed, 'name');
  if (name === undefined) return undefined;
  const args = parsed['arguments'];
  return {
    name,
    arguments: typeof args === 'string' ? args : args === undefined ? '{}' : JSON.stringify(args),
  };
}

/** An opaque part the openai encoder writes back verbatim. */
export function opaque(kind: string, value: unknown): OpaquePart {
  return { type: 'opaque', kind, value: asJson(value), ...withPartMeta({ verbatim: true }) };
}
