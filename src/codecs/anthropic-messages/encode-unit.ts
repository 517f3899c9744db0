import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import { messageText } from '../../model/message-helpers.js';
import type { Part } from '../../model/part.js';
import { encodeBlock } from './encode-block.js';
import { hasIntactOrigin, messageMeta, metaObject, metaString, partMeta } from './meta.js';

/** One message on its way to the wire: its blocks plus what merging and exact re-encoding need. */
export interface Unit {
  readonly role: 'user' | 'assistant';
  readonly blocks: readonly unknown[];
  /** Per block: `t` for a tool_result, `u` for anything else (to interleave split messages back). */
  readonly kinds: string;
  /** Content written as this value instead of blocks (string content, or a non-array value read as is). */
  readonly content?: unknown;
  /** Leave `content` out (the wire message had none). */
  readonly noContent?: boolean;
  /** Index of the wire message a decoded message came from; `undefined` for messages from elsewhere. */
  readonly group?: number;
  readonly order?: string;
  /** How many decoded messages the wire message was split into, and how many this unit holds. */
  readonly split: number;
  readonly members: number;
  /** The wire message itself while every member is untouched. */
  readonly intact?: unknown;
  readonly extra?: JsonObject;
  readonly unknownRole?: boolean;
  /** A value that was not a message object, written back as it was and never merged. */
  readonly verbatim?: unknown;
}

/**
 * The unit of a message, or `undefined` when nothing of it can be sent (a message from elsewhere that held
 * only unsigned reasoning or blank text: Anthropic rejects whitespace-only text blocks, so they are left out). A system message in the middle of the conversation cannot be sent
 * as such: it becomes user text inside `<system-reminder>` tags (the convention Claude Code uses for
 * out-of-band instructions), merged into the neighbouring user turn.
 */
export function messageUnit(message: Message): Unit | undefined {
  const meta = messageMeta(message);
  const intact = hasIntactOrigin(message) ? { intact: message.meta?.origin?.wire } : {};
  if (message.role === 'system') {
    const text = messageText(message);
    if (text.trim() === '') return undefined;
    return unit('user', [{ type: 'text', text: `<system-reminder>\n${text}\n</system-reminder>` }], 'u');
  }
  const decoded = meta !== undefined;
  const first = message.parts[0];
  if (meta?.['invalid'] === true && message.parts.length === 1 && first?.type === 'opaque') {
    return { ...unit('user', [], ''), verbatim: first.value };
  }
  const results = message.parts.filter((part) => part.type === 'tool-result');
  const others = message.parts.filter((part) => part.type !== 'tool-result');
  const ordered = message.role === 'assistant' ? message.parts : [...results, ...others];
  const blocks: unknown[] = [];
  let kinds = '';
  for (const part of ordered) {
    if (!decoded && part.type === 'text' && part.text.trim() === '') continue;
    const block = encodeBlock(part);
    if (block === undefined) continue;
    blocks.push(block);
    kinds += part.type === 'tool-result' ? 't' : 'u';
  }
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  if (!decoded) {
    if (blocks.length === 0) return undefined;
    const single = singleText(message.parts);
    return { ...unit(role, blocks, kinds), ...(single === undefined ? {} : { content: single }), ...intact };
  }
  const group = meta['group'];
  const split = meta['split'];
  const extra = metaObject(meta, 'extra');
  const order = metaString(meta, 'order');
  return {
    ...unit(role, blocks, kinds),
    ...contentOf(message.parts, metaString(meta, 'content')),
    ...(typeof group === 'number' ? { group } : {}),
    ...(order === undefined ? {} : { order }),
    split: typeof split === 'number' ? split : 1,
    ...(extra === undefined ? {} : { extra }),
    ...(meta['unknownRole'] === true ? { unknownRole: true } : {}),
    ...intact,
  };
}

function unit(role: 'user' | 'assistant', blocks: unknown[], kinds: string): Unit {
  return { role, blocks, kinds, split: 1, members: 1 };
}

/** How a decoded message's content is written when it was not an array of blocks. */
function contentOf(
  parts: readonly Part[],
  shape: string | undefined,
): { content?: unknown; noContent?: true } {
  if (shape === 'absent' && parts.length === 0) return { noContent: true };
  const only = parts[0];
  if (shape === 'other' && parts.length === 1 && only?.type === 'opaque') return { content: only.value };
  if (shape === 'string') {
    if (parts.length === 0) return { content: '' };
    const single = singleText(parts);
    if (single !== undefined) return { content: single };
  }
  return {};
}

function singleText(parts: readonly Part[]): string | undefined {
  const only = parts[0];
  if (parts.length !== 1 || only?.type !== 'text' || partMeta(only) !== undefined) return undefined;
  return only.text;
}
