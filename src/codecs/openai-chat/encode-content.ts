import type { Part, ToolCallPart } from '../../model/part.js';
import { parseTypedCall } from './decode-content.js';
import { metaObject, metaString, partMeta } from './meta.js';
import { argumentsValue } from './tool-calls.js';

/** What encoding a content value needs to know. */
export interface ContentEncoding {
  /** The shape the content had on the wire (`undefined` for a message condense or another codec made). */
  readonly shape: string | undefined;
  /**
   * Write new parts in LLaMA-Factory's `{type, value}` dialect: set for messages condense made inside a
   * transcript read in that dialect. Decoded parts keep the field they were read with either way.
   */
  readonly typed: boolean;
}

/**
 * The wire `content` of parts (text, images, opaque, and in the typed dialect reasoning and tool calls).
 * Returns `undefined` to leave the key out. A string is written when the wire had one (or for a new message of
 * text only); text parts are then joined with newlines.
 */
export function encodeContent(parts: readonly Part[], encoding: ContentEncoding): unknown {
  const { shape } = encoding;
  const only = parts[0];
  if (shape === 'other' && parts.length === 1 && only?.type === 'opaque') return only.value;
  if (parts.length === 0) {
    if (shape === 'null') return null;
    if (shape === 'absent') return undefined;
    if (shape === 'parts' || (shape === undefined && encoding.typed)) return [];
    return '';
  }
  const wantString = shape === 'string' || shape === 'null' || shape === 'absent' || shape === undefined;
  if (wantString && !encoding.typed && parts.every(isPlainText)) {
    return parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  }
  return parts.map((part) => encodeContentPart(part, encoding.typed));
}

function isPlainText(part: Part): boolean {
  if (part.type !== 'text') return false;
  const meta = partMeta(part);
  return meta === undefined || (meta['extra'] === undefined && meta['field'] === undefined);
}

/** One wire content part. Parts the wire cannot hold become a short text placeholder. */
export function encodeContentPart(part: Part, typed: boolean): unknown {
  const meta = partMeta(part);
  const extra = metaObject(meta, 'extra') ?? {};
  switch (part.type) {
    case 'text':
      return valueField(meta, typed)
        ? { type: 'text', value: part.text, ...extra }
        : { type: 'text', text: part.text, ...extra };
    case 'image': {
      const source = part.source;
      const url =
        source.kind === 'url' ? source.url : `data:${source.mediaType ?? 'image/png'};base64,${source.data}`;
      return { type: 'image_url', image_url: { url, ...metaObject(meta, 'urlExtra') }, ...extra };
    }
    case 'reasoning':
      return { type: 'reasoning', value: part.text, ...extra };
    case 'tool-call':
      return { type: 'tool_call', value: typedCallValue(part), ...extra };
    case 'opaque':
      return meta?.['verbatim'] === true ? part.value : { type: 'text', text: `[${part.kind} omitted]` };
    case 'tool-result':
      return { type: 'text', text: `[tool result ${part.callId} omitted]` };
  }
}

function valueField(meta: ReturnType<typeof partMeta>, typed: boolean): boolean {
  const field = metaString(meta, 'field');
  return field === 'value' || (field === undefined && typed);
}

/** The `value` of a typed tool call: the original text while name and arguments are unchanged. */
function typedCallValue(part: ToolCallPart): string {
  const original = metaString(partMeta(part), 'typed');
  if (original !== undefined) {
    const read = parseTypedCall(original);
    if (read?.name === part.name && read.arguments === part.arguments) return original;
  }
  return JSON.stringify({ name: part.name, arguments: argumentsValue(part.arguments) });
}
