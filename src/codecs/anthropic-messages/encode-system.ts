import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import { encodeBlock } from './encode-block.js';
import { hasIntactOrigin, messageMeta, metaString, partMeta } from './meta.js';

/**
 * The top-level `system` value of the leading system messages, or `undefined` when there are none. A system
 * prompt read from Anthropic keeps its shape (string or blocks, `cache_control` included); system messages from
 * elsewhere become one string (several are joined with a blank line; blank ones are left out, Anthropic
 * rejects whitespace-only text), or text blocks when they carry more than plain text. Only text can be a
 * system block: other parts become a short placeholder.
 */
export function encodeSystem(messages: readonly Message[]): unknown {
  const only = messages[0];
  if (only === undefined) return undefined;
  if (messages.length === 1) {
    if (hasIntactOrigin(only)) return only.meta?.origin?.wire;
    const shape = metaString(messageMeta(only), 'system');
    const first = only.parts[0];
    if (shape === 'other' && only.parts.length === 1 && first?.type === 'opaque') return first.value;
    if (shape === 'string' && only.parts.every(isPlainText)) return texts(only.parts).join('\n');
    if (shape !== undefined) return only.parts.map(decodedBlock);
  }
  const parts = messages.flatMap((message) => message.parts).filter((part) => !isBlank(part));
  if (parts.length === 0) return undefined;
  if (parts.every(isPlainText)) {
    return messages
      .map((message) => texts(message.parts).join('\n'))
      .filter((text) => text.trim() !== '')
      .join('\n\n');
  }
  return parts.map(systemBlock);
}

function decodedBlock(part: Part): unknown {
  const block = encodeBlock(part);
  return block === undefined ? placeholder(part) : block;
}

function isBlank(part: Part): boolean {
  return part.type === 'text' && part.text.trim() === '';
}

function placeholder(part: Part): unknown {
  return { type: 'text', text: `[${part.type} omitted]` };
}

function isPlainText(part: Part): boolean {
  return part.type === 'text' && partMeta(part) === undefined;
}

function texts(parts: readonly Part[]): string[] {
  return parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

function systemBlock(part: Part): unknown {
  return part.type === 'text' || part.type === 'opaque' ? encodeBlock(part) : placeholder(part);
}
