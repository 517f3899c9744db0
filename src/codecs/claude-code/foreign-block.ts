import { isJsonObject, type JsonValue } from '../../model/json.js';
import type { Part, ToolResultContentPart } from '../../model/part.js';
import { ANTHROPIC_BLOCKS } from '../anthropic-messages/encode-block.js';
import { objectInput } from '../portable/raw-arguments.js';
import { reasoningAsText } from '../portable/reasoning-text.js';
import { encodeBlock } from './blocks.js';

/**
 * The content block of a part in a record condense writes (a new message, or one from another format), as the
 * Anthropic API accepts it when Claude Code sends the session back: reasoning without a signature becomes
 * `<think>` text (unsigned thinking is rejected), another format's opaque part a placeholder text unless it is an
 * Anthropic block, and tool arguments that are not a JSON object `{"_raw_arguments": text}`.
 */
export function foreignBlock(part: Part): JsonValue {
  switch (part.type) {
    case 'reasoning':
      if (part.signature === undefined && !(part.data !== undefined && part.text === ''))
        return { type: 'text', text: reasoningAsText(part.text) };
      return encodeBlock(part);
    case 'opaque':
      return opaqueBlock(part);
    case 'tool-call': {
      const block = encodeBlock(part);
      return isJsonObject(block) ? { ...block, input: objectInput(part.arguments) as JsonValue } : block;
    }
    case 'tool-result': {
      const block = encodeBlock({ ...part, content: part.content.map(resultItem) });
      return block;
    }
    default:
      return encodeBlock(part);
  }
}

function resultItem(item: ToolResultContentPart): ToolResultContentPart {
  if (item.type !== 'opaque') return item;
  const block = opaqueBlock(item);
  return isJsonObject(block) && block['type'] === 'text' && typeof block['text'] === 'string'
    ? { type: 'text', text: block['text'] }
    : item;
}

function opaqueBlock(part: Extract<Part, { type: 'opaque' }>): JsonValue {
  const value = part.value;
  if (isJsonObject(value) && typeof value['type'] === 'string' && ANTHROPIC_BLOCKS.has(value['type']))
    return value;
  return { type: 'text', text: `[${part.kind} omitted]` };
}
