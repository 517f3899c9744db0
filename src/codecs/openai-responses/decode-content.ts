import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ImagePart, OpaquePart, TextPart, ToolResultContentPart } from '../../model/part.js';
import { extraKeys, withOwnMeta } from './meta.js';

/** How a message's content was written: a plain string, or a list of typed parts. */
export type ContentShape = 'string' | 'parts' | 'other';

/** The parts of a message's `content` and the shape it had. */
export interface DecodedContent {
  readonly parts: (TextPart | ImagePart | OpaquePart)[];
  readonly shape: ContentShape;
}

/**
 * Decodes message content: text parts (`input_text`, `output_text`, `refusal`, each keeping its type and extra
 * keys such as `annotations` in part meta), images given by URL or data URL, and everything else (`input_file`,
 * images by `file_id`, audio, unknown parts) as opaque parts written back verbatim.
 */
export function decodeMessageContent(content: unknown): DecodedContent {
  if (typeof content === 'string') return { parts: [{ type: 'text', text: content }], shape: 'string' };
  if (!Array.isArray(content)) {
    return { parts: [verbatim('content', content as JsonValue)], shape: 'other' };
  }
  return { parts: content.map(decodeContentPart), shape: 'parts' };
}

/** One content part of a message or of a tool output. */
export function decodeContentPart(part: unknown): TextPart | ImagePart | OpaquePart {
  if (!isJsonObject(part)) return verbatim('content', (part ?? null) as JsonValue);
  const type = part['type'];
  if (
    (type === 'input_text' || type === 'output_text' || type === 'text') &&
    typeof part['text'] === 'string'
  ) {
    return {
      type: 'text',
      text: part['text'],
      ...withOwnMeta({ t: type, extra: extraKeys(part, ['type', 'text']) }),
    };
  }
  if (type === 'refusal' && typeof part['refusal'] === 'string') {
    return {
      type: 'text',
      text: part['refusal'],
      ...withOwnMeta({ t: type, extra: extraKeys(part, ['type', 'refusal']) }),
    };
  }
  if (type === 'input_image' && typeof part['image_url'] === 'string') {
    const image = imageFromUrl(part['image_url']);
    if (image !== undefined) {
      return { ...image, ...withOwnMeta({ t: type, extra: extraKeys(part, ['type', 'image_url']) }) };
    }
  }
  return verbatim(typeof type === 'string' ? type : 'content', part);
}

/** An image part for a URL or a base64 data URL (other data URLs are not images condense can show). */
export function imageFromUrl(url: string): Omit<ImagePart, 'meta'> | undefined {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (data !== null) {
    const mediaType = data[1] as string;
    if (!mediaType.startsWith('image/')) return undefined;
    return { type: 'image', source: { kind: 'base64', data: data[2] as string, mediaType } };
  }
  return url.startsWith('data:') ? undefined : { type: 'image', source: { kind: 'url', url } };
}

/** The URL an image part is written with. */
export function imageUrl(part: ImagePart): string {
  const source = part.source;
  return source.kind === 'url' ? source.url : `data:${source.mediaType ?? 'image/png'};base64,${source.data}`;
}

/** A content part carried as it was read. */
function verbatim(kind: string, value: JsonValue): OpaquePart {
  return { type: 'opaque', kind, value, ...withOwnMeta({ c: true }) };
}

/** What a tool output's `output` decodes to. */
export interface DecodedOutput {
  readonly content: ToolResultContentPart[];
  /** `string`, `parts`, `object` (Codex's early `{content, success}`), or `other`. */
  readonly shape: string;
  readonly isError?: boolean;
  /** Keys of an `object` output other than `content` (`success` included). */
  readonly extra?: JsonObject;
}

/**
 * Decodes the `output` of a `function_call_output` or `custom_tool_call_output`: a string, a list of content
 * parts, or the `{content, success}` object early Codex versions wrote (`success: false` marks a failure).
 */
export function decodeOutput(output: unknown): DecodedOutput {
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }], shape: 'string' };
  if (Array.isArray(output)) return { content: output.map(decodeContentPart), shape: 'parts' };
  if (isJsonObject(output) && typeof output['content'] === 'string') {
    const extra = extraKeys(output, ['content']);
    return {
      content: [{ type: 'text', text: output['content'] }],
      shape: 'object',
      ...(output['success'] === false ? { isError: true } : {}),
      ...(extra === undefined ? {} : { extra }),
    };
  }
  return { content: [verbatim('output', (output ?? null) as JsonValue)], shape: 'other' };
}
