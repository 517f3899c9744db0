import type { ImagePart, Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import { objectInput, parsedArguments } from '../portable/raw-arguments.js';
import { reasoningAsText } from '../portable/reasoning-text.js';
import { ANTHROPIC_SERVER_BLOCKS } from '../provider-rules/anthropic-rules.js';
import { isWireObject } from '../wire-object.js';
import { metaObject, metaString, partMeta } from './meta.js';

/** Block types of the Anthropic Messages API that an opaque part may carry verbatim even from another codec. */
export const ANTHROPIC_BLOCKS: ReadonlySet<string> = new Set([
  'document',
  'search_result',
  ...ANTHROPIC_SERVER_BLOCKS,
]);

/**
 * One content block for a part. Reasoning without a signature from another provider becomes `<think>` text
 * (Anthropic verifies thinking blocks and would reject it); a thinking block read without a signature is written
 * back as it was; encrypted reasoning without its data cannot be sent and gives `undefined`.
 */
export function encodeBlock(part: Part): unknown {
  const meta = partMeta(part);
  const extra = metaObject(meta, 'extra') ?? {};
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...extra };
    case 'image':
      return encodeImage(part);
    case 'tool-call':
      return { type: 'tool_use', id: part.id, name: part.name, ...encodeInput(part), ...extra };
    case 'tool-result':
      return encodeResult(part);
    case 'reasoning':
      return encodeReasoning(part);
    case 'opaque':
      return sendable(part.value, meta) ? part.value : { type: 'text', text: `[${part.kind} omitted]` };
  }
}

function sendable(value: unknown, meta: ReturnType<typeof partMeta>): boolean {
  if (meta?.['verbatim'] === true) return true;
  return isWireObject(value) && typeof value['type'] === 'string' && ANTHROPIC_BLOCKS.has(value['type']);
}

function encodeImage(part: ImagePart): unknown {
  const meta = partMeta(part);
  const sourceExtra = metaObject(meta, 'sourceExtra') ?? {};
  const source = part.source;
  if (source.kind === 'url') {
    return {
      type: 'image',
      source: { type: 'url', url: source.url, ...sourceExtra },
      ...metaObject(meta, 'extra'),
    };
  }
  const mediaType =
    source.mediaType ?? (meta?.['mediaType'] === 'absent' ? undefined : sniffMediaType(source.data));
  return {
    type: 'image',
    source: {
      type: 'base64',
      ...(mediaType === undefined ? {} : { media_type: mediaType }),
      data: source.data,
      ...sourceExtra,
    },
    ...metaObject(meta, 'extra'),
  };
}

/** The media type of base64 image data from its first bytes; Anthropic requires one. */
function sniffMediaType(data: string): string {
  if (data.startsWith('/9j/')) return 'image/jpeg';
  if (data.startsWith('R0lGOD')) return 'image/gif';
  if (data.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

/**
 * `input` from the argument text. Anthropic needs a JSON object: empty text becomes `{}`, and text that is not
 * a JSON object (invalid JSON from a model or a transform, an array…) is wrapped as `{"_raw_arguments": text}`
 * so the request stays valid and nothing is lost (the loss report counts it). A non-object `input` read from
 * Anthropic is written back as is.
 */
function encodeInput(part: ToolCallPart): { input?: unknown } {
  const shape = metaString(partMeta(part), 'input');
  if (shape === 'absent' && part.arguments === '{}') return {};
  if (shape === 'value') {
    const parsed = parsedArguments(part.arguments);
    if (parsed !== undefined) return { input: parsed.value };
  }
  return { input: objectInput(part.arguments) };
}

function encodeResult(part: ToolResultPart): unknown {
  const meta = partMeta(part);
  const shape = metaString(meta, 'content');
  const content = part.content;
  const block: Record<string, unknown> = { type: 'tool_result', tool_use_id: part.callId };
  const plain = content.every((item) => item.type === 'text' && partMeta(item) === undefined);
  if (shape === 'string' && plain)
    block['content'] = content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
  else if (shape === 'blocks') block['content'] = content.map(encodeBlock);
  else if (content.length > 0 || shape !== 'absent') {
    const kept =
      shape === undefined ? content.filter((item) => item.type !== 'text' || item.text !== '') : content;
    const only = kept[0];
    if (kept.length === 1 && only?.type === 'text' && plain) block['content'] = only.text;
    else if (kept.length > 0) block['content'] = kept.map(encodeBlock);
  }
  if (part.isError !== undefined) block['is_error'] = part.isError;
  return { ...block, ...metaObject(meta, 'extra') };
}

function encodeReasoning(part: ReasoningPart): unknown {
  const meta = partMeta(part);
  const extra = metaObject(meta, 'extra') ?? {};
  if (part.data !== undefined && part.text === '')
    return { type: 'redacted_thinking', data: part.data, ...extra };
  if (part.signature !== undefined) {
    return { type: 'thinking', thinking: part.text, signature: part.signature, ...extra };
  }
  if (meta?.['unsigned'] === true) return { type: 'thinking', thinking: part.text, ...extra };
  // Read from a `<think>` text block, or unsigned reasoning from another provider (Anthropic would reject it).
  return { type: 'text', text: reasoningAsText(part.text) };
}
