import type {
  ImagePart,
  OpaquePart,
  Part,
  ReasoningPart,
  ToolCallPart,
  ToolResultContentPart,
  ToolResultPart,
} from '../../model/part.js';
import { unwrapRawArguments } from '../portable/raw-arguments.js';
import { splitReasoningText } from '../portable/reasoning-text.js';
import { asJson, extraKeys, isWireObject, stringField, type WireObject } from '../wire-object.js';
import { withPartMeta } from './meta.js';

/**
 * Decodes one content block. `text`, `image`, `tool_use`, `tool_result`, `thinking` and `redacted_thinking` map
 * to parts (keys they do not model, such as `cache_control` or `citations`, go to part meta); every other block
 * (`server_tool_use`, `web_search_tool_result`, `document`…) is opaque and written back verbatim.
 */
export function decodeBlock(block: unknown): Part {
  if (!isWireObject(block)) return opaque('invalid', block);
  const type = stringField(block, 'type');
  switch (type) {
    case 'text':
      return thinkText(block) ?? decodeText(block) ?? opaque(type, block);
    case 'image':
      return decodeImage(block) ?? opaque(type, block);
    case 'tool_use':
      return decodeToolUse(block) ?? opaque(type, block);
    case 'tool_result':
      return decodeToolResult(block) ?? opaque(type, block);
    case 'thinking':
      return decodeThinking(block) ?? opaque(type, block);
    case 'redacted_thinking': {
      const data = stringField(block, 'data');
      if (data === undefined) return opaque(type, block);
      return {
        type: 'reasoning',
        text: '',
        data,
        ...withPartMeta({ extra: extraKeys(block, ['type', 'data']) }),
      };
    }
    default:
      return opaque(type ?? 'unknown', block);
  }
}

/**
 * A text block that is nothing but reasoning in `<think>` tags (how unsigned reasoning from another provider is
 * sent) reads back as reasoning, and is written back as the same text block.
 */
function thinkText(block: WireObject): Part | undefined {
  const text = stringField(block, 'text');
  if (text === undefined || Object.keys(block).length !== 2) return undefined;
  const split = splitReasoningText(text);
  if (split === undefined || split.rest !== undefined) return undefined;
  return { type: 'reasoning', text: split.reasoning, ...withPartMeta({ think: true }) };
}

/** A block of a `tool_result`'s content: text and images are understood, anything else is opaque. */
export function decodeResultBlock(block: unknown): ToolResultContentPart {
  if (!isWireObject(block)) return opaque('invalid', block);
  const type = stringField(block, 'type');
  if (type === 'text') return decodeText(block) ?? opaque(type, block);
  if (type === 'image') return decodeImage(block) ?? opaque(type, block);
  return opaque(type ?? 'unknown', block);
}

function decodeText(block: WireObject): ToolResultContentPart | undefined {
  const text = stringField(block, 'text');
  if (text === undefined) return undefined;
  return { type: 'text', text, ...withPartMeta({ extra: extraKeys(block, ['type', 'text']) }) };
}

function decodeImage(block: WireObject): ImagePart | undefined {
  const source = block['source'];
  if (!isWireObject(source)) return undefined;
  const extra = extraKeys(block, ['type', 'source']);
  if (source['type'] === 'base64') {
    const data = stringField(source, 'data');
    if (data === undefined) return undefined;
    const mediaType = stringField(source, 'media_type');
    return {
      type: 'image',
      source: { kind: 'base64', data, ...(mediaType === undefined ? {} : { mediaType }) },
      ...withPartMeta({
        extra,
        sourceExtra: extraKeys(
          source,
          mediaType === undefined ? ['type', 'data'] : ['type', 'data', 'media_type'],
        ),
        mediaType: mediaType === undefined ? 'absent' : undefined,
      }),
    };
  }
  if (source['type'] === 'url') {
    const url = stringField(source, 'url');
    if (url === undefined) return undefined;
    return {
      type: 'image',
      source: { kind: 'url', url },
      ...withPartMeta({ extra, sourceExtra: extraKeys(source, ['type', 'url']) }),
    };
  }
  return undefined;
}

function decodeToolUse(block: WireObject): ToolCallPart | undefined {
  const id = stringField(block, 'id');
  const name = stringField(block, 'name');
  if (id === undefined || name === undefined) return undefined;
  const input = block['input'];
  // Argument text condense (or a tool like it) had to wrap to send it reads back as the text it was.
  const raw = unwrapRawArguments(input);
  return {
    type: 'tool-call',
    id,
    name,
    arguments: raw ?? (input === undefined ? '{}' : JSON.stringify(input)),
    ...withPartMeta({
      extra: extraKeys(block, ['type', 'id', 'name', 'input']),
      input: input === undefined ? 'absent' : raw !== undefined || isWireObject(input) ? undefined : 'value',
    }),
  };
}

function decodeToolResult(block: WireObject): ToolResultPart | undefined {
  const callId = stringField(block, 'tool_use_id');
  if (callId === undefined) return undefined;
  const content = block['content'];
  const isError = block['is_error'];
  let parts: ToolResultContentPart[];
  let shape: string | undefined;
  if (typeof content === 'string') {
    parts = content === '' ? [] : [{ type: 'text', text: content }];
    shape = 'string';
  } else if (Array.isArray(content)) {
    parts = content.map(decodeResultBlock);
    shape = 'blocks';
  } else if (content === undefined) {
    parts = [];
    shape = 'absent';
  } else return undefined;
  return {
    type: 'tool-result',
    callId,
    content: parts,
    ...(typeof isError === 'boolean' ? { isError } : {}),
    ...withPartMeta({
      content: shape,
      extra: extraKeys(block, [
        'type',
        'tool_use_id',
        'content',
        ...(typeof isError === 'boolean' ? ['is_error'] : []),
      ]),
    }),
  };
}

function decodeThinking(block: WireObject): ReasoningPart | undefined {
  const text = stringField(block, 'thinking');
  if (text === undefined) return undefined;
  const signature = stringField(block, 'signature');
  return {
    type: 'reasoning',
    text,
    ...(signature === undefined ? {} : { signature }),
    ...withPartMeta({
      extra: extraKeys(
        block,
        signature === undefined ? ['type', 'thinking'] : ['type', 'thinking', 'signature'],
      ),
      unsigned: signature === undefined ? true : undefined,
    }),
  };
}

function opaque(kind: string, value: unknown): OpaquePart {
  return { type: 'opaque', kind, value: asJson(value), ...withPartMeta({ verbatim: true }) };
}
