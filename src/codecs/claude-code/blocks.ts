import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { ImagePart, OpaquePart, Part, PartMeta, ToolResultContentPart } from '../../model/part.js';
import { objectInput, parsedArguments, unwrapRawArguments } from '../portable/raw-arguments.js';
import { reasoningAsText, splitReasoningText } from '../portable/reasoning-text.js';
import { CC, omitKeys } from './records.js';

/**
 * Content blocks of Claude Code records (Anthropic API blocks) ↔ model parts. Each block becomes exactly one
 * part; keys the model has no field for (`caller`, `cache_control`, `citations`…) travel in the part's
 * `meta['claude-code'].extra` and are written back after the known keys.
 */

/** Known keys per block type; anything else is extra. */
const KNOWN: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text'],
  thinking: ['type', 'thinking', 'signature'],
  redacted_thinking: ['type', 'data'],
  tool_use: ['type', 'id', 'name', 'input'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error'],
  image: ['type', 'source'],
};

/** Block types this codec understands; others become opaque parts (and a decode issue). */
export function isKnownBlock(block: unknown): boolean {
  return isJsonObject(block) && typeof block['type'] === 'string' && block['type'] in KNOWN;
}

function metaWith(block: JsonObject, fields: JsonObject = {}): { meta?: PartMeta } {
  const extra = omitKeys(block, KNOWN[block['type'] as string] ?? []);
  const own: Record<string, JsonValue> = { ...(fields as Record<string, JsonValue>) };
  if (extra !== undefined) own['extra'] = extra;
  return Object.keys(own).length === 0 ? {} : { meta: { [CC]: own } };
}

function opaque(block: unknown): OpaquePart {
  const kind = isJsonObject(block) && typeof block['type'] === 'string' ? block['type'] : 'unknown';
  return { type: 'opaque', kind, value: (block ?? null) as JsonValue };
}

/**
 * The part a content block stands for. Blocks of unknown type, or known type but unexpected shape, are opaque. A
 * message's text block holding nothing but `<think>` reasoning (how condense writes reasoning that has no
 * signature) reads as reasoning and is written back as that text block.
 */
export function decodeBlock(block: unknown, inResult = false): Part {
  if (!isJsonObject(block)) return opaque(block);
  switch (block['type']) {
    case 'text': {
      if (typeof block['text'] !== 'string') return opaque(block);
      const split =
        inResult || Object.keys(block).length !== 2 ? undefined : splitReasoningText(block['text']);
      if (split !== undefined && split.rest === undefined)
        return { type: 'reasoning', text: split.reasoning, meta: { [CC]: { think: true } } };
      return { type: 'text', text: block['text'], ...metaWith(block) };
    }
    case 'thinking': {
      const { thinking, signature } = block;
      if (typeof thinking !== 'string' || (signature !== undefined && typeof signature !== 'string'))
        return opaque(block);
      return {
        type: 'reasoning',
        text: thinking,
        ...(signature === undefined ? {} : { signature }),
        ...metaWith(block),
      };
    }
    case 'redacted_thinking':
      return typeof block['data'] === 'string'
        ? { type: 'reasoning', text: '', data: block['data'], ...metaWith(block) }
        : opaque(block);
    case 'tool_use': {
      const { id, name, input } = block;
      if (typeof id !== 'string' || typeof name !== 'string' || input === undefined) return opaque(block);
      // Argument text condense had to wrap (see `foreignBlock`) reads back as the text it was, marked so that a
      // rebuilt record wraps it again rather than writing the text (or an array) as its input.
      const raw = unwrapRawArguments(input);
      if (raw !== undefined)
        return { type: 'tool-call', id, name, arguments: raw, ...metaWith(block, { rawArguments: true }) };
      return { type: 'tool-call', id, name, arguments: JSON.stringify(input), ...metaWith(block) };
    }
    case 'tool_result':
      return decodeToolResult(block);
    case 'image':
      return decodeImage(block) ?? opaque(block);
    default:
      return opaque(block);
  }
}

function decodeImage(block: JsonObject): ImagePart | undefined {
  const source = block['source'];
  if (!isJsonObject(source)) return undefined;
  const mediaType = source['media_type'];
  if (mediaType !== undefined && typeof mediaType !== 'string') return undefined;
  const media = mediaType === undefined ? {} : { mediaType };
  if (
    source['type'] === 'base64' &&
    typeof source['data'] === 'string' &&
    onlyKeys(source, ['type', 'media_type', 'data'])
  ) {
    return { type: 'image', source: { kind: 'base64', data: source['data'], ...media }, ...metaWith(block) };
  }
  if (
    source['type'] === 'url' &&
    typeof source['url'] === 'string' &&
    onlyKeys(source, ['type', 'media_type', 'url'])
  ) {
    return { type: 'image', source: { kind: 'url', url: source['url'], ...media }, ...metaWith(block) };
  }
  return undefined;
}

function onlyKeys(object: JsonObject, keys: readonly string[]): boolean {
  return Object.keys(object).every((key) => keys.includes(key));
}

function decodeToolResult(block: JsonObject): Part {
  const { tool_use_id: callId, content, is_error: isError } = block;
  if (typeof callId !== 'string' || (isError !== undefined && typeof isError !== 'boolean'))
    return opaque(block);
  if (content !== undefined && typeof content !== 'string' && !Array.isArray(content)) return opaque(block);
  const parts: ToolResultContentPart[] =
    content === undefined
      ? []
      : typeof content === 'string'
        ? [{ type: 'text', text: content }]
        : content.map(decodeResultItem);
  const shape =
    content === undefined
      ? 'absent'
      : typeof content === 'string'
        ? undefined
        : defaultShape(parts) === 'string'
          ? 'array'
          : undefined;
  return {
    type: 'tool-result',
    callId,
    content: parts,
    ...(isError === undefined ? {} : { isError }),
    ...metaWith(block, shape === undefined ? {} : { contentShape: shape }),
  };
}

function decodeResultItem(item: unknown): ToolResultContentPart {
  const part = decodeBlock(item, true);
  return part.type === 'text' || part.type === 'image' || part.type === 'opaque' ? part : opaque(item);
}

/** How a tool result's content is written when nothing says otherwise: one text part → a string. */
function defaultShape(content: readonly ToolResultContentPart[]): 'string' | 'array' {
  const only = content[0];
  return content.length === 1 && only?.type === 'text' && only.meta === undefined ? 'string' : 'array';
}

function ownMeta(part: Part | ToolResultContentPart): JsonObject | undefined {
  const own = part.meta?.[CC];
  return isJsonObject(own) ? own : undefined;
}

function withExtra(
  known: Record<string, JsonValue | undefined>,
  part: Part | ToolResultContentPart,
): JsonObject {
  const extra = ownMeta(part)?.['extra'];
  return isJsonObject(extra) ? { ...known, ...extra } : known;
}

/** The content block a part is written as (an opaque part as the very value it carries). */
export function encodeBlock(part: Part): JsonValue {
  switch (part.type) {
    case 'text':
      return withExtra({ type: 'text', text: part.text }, part);
    case 'reasoning':
      if (ownMeta(part)?.['think'] === true) return { type: 'text', text: reasoningAsText(part.text) };
      if (part.data !== undefined && part.text === '')
        return withExtra({ type: 'redacted_thinking', data: part.data }, part);
      return withExtra(
        {
          type: 'thinking',
          thinking: part.text,
          ...(part.signature === undefined ? {} : { signature: part.signature }),
        },
        part,
      );
    case 'tool-call': {
      const input =
        ownMeta(part)?.['rawArguments'] === true
          ? (objectInput(part.arguments) as JsonValue)
          : parseInput(part.arguments);
      return withExtra({ type: 'tool_use', id: part.id, name: part.name, input }, part);
    }
    case 'tool-result': {
      const shape = ownMeta(part)?.['contentShape'] ?? defaultShape(part.content);
      const items = part.content.map(encodeBlock);
      const only = part.content[0];
      const content =
        shape === 'absent' && part.content.length === 0
          ? undefined
          : shape === 'string' && part.content.length === 1 && only?.type === 'text'
            ? only.text
            : items;
      return withExtra(
        {
          type: 'tool_result',
          tool_use_id: part.callId,
          ...(content === undefined ? {} : { content }),
          ...(part.isError === undefined ? {} : { is_error: part.isError }),
        },
        part,
      );
    }
    case 'image': {
      const media = part.source.mediaType === undefined ? {} : { media_type: part.source.mediaType };
      const source =
        part.source.kind === 'base64'
          ? { type: 'base64', ...media, data: part.source.data }
          : { type: 'url', ...media, url: part.source.url };
      return withExtra({ type: 'image', source }, part);
    }
    case 'opaque':
      return part.value;
  }
}

/** Tool input from arguments text: the parsed JSON, or the text itself when it is not JSON. */
function parseInput(args: string): JsonValue {
  const parsed = parsedArguments(args);
  return parsed === undefined ? args : (parsed.value as JsonValue);
}
