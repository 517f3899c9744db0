import type { JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { Role } from '../../model/role.js';
import type { DecodeIssue } from '../codec.js';
import { asJson, extraKeys, isWireObject } from '../wire-object.js';
import { decodeBlock } from './decode-block.js';
import { decodedMessageMeta, withPartMeta } from './meta.js';

type Fields = Record<string, JsonValue | undefined>;

/**
 * Decodes the message at `index` of `messages`. A user message holding `tool_result` blocks is split: the
 * results become a `tool` message (our model keeps results there) followed, when other blocks remain, by a
 * user message. Both carry `group: index`, and `order` records how the blocks interleaved when results did not
 * all come first, so the encoder merges them back into the very same wire message.
 */
export function decodeAnthropicMessage(wire: unknown, index: number, issues: DecodeIssue[]): Message[] {
  if (!isWireObject(wire)) {
    issues.push({
      code: 'invalid-shape',
      severity: 'error',
      message: `message ${index} is not an object; it is carried verbatim`,
      path: ['messages', index],
    });
    const parts: Part[] = [
      { type: 'opaque', kind: 'invalid', value: asJson(wire), ...withPartMeta({ verbatim: true }) },
    ];
    return [{ role: 'user', parts, meta: decodedMessageMeta(wire, parts, { group: index, invalid: true }) }];
  }
  const wireRole = wire['role'];
  const known = wireRole === 'user' || wireRole === 'assistant';
  if (!known) {
    issues.push({
      code: 'unknown-role',
      severity: 'warning',
      message: `message ${index} has role ${JSON.stringify(wireRole ?? null)}; it is read as a user message`,
      path: ['messages', index, 'role'],
    });
  }
  const role: Role = wireRole === 'assistant' ? 'assistant' : 'user';
  const fields: Fields = {
    group: index,
    extra: extraKeys(wire, known ? ['role', 'content'] : ['content']),
    unknownRole: known ? undefined : true,
  };
  const content = wire['content'];
  if (typeof content === 'string') {
    const parts: Part[] = content === '' ? [] : [{ type: 'text', text: content }];
    return [{ role, parts, meta: decodedMessageMeta(wire, parts, { ...fields, content: 'string' }) }];
  }
  if (!Array.isArray(content)) {
    const parts: Part[] =
      content === undefined ? [] : [{ type: 'opaque', kind: 'content', value: asJson(content) }];
    const shape = content === undefined ? 'absent' : 'other';
    return [{ role, parts, meta: decodedMessageMeta(wire, parts, { ...fields, content: shape }) }];
  }
  const blocks = content.map(decodeBlock);
  const hasResults = blocks.some((part) => part.type === 'tool-result');
  if (role !== 'user' || !hasResults) {
    return [{ role, parts: blocks, meta: decodedMessageMeta(wire, blocks, fields) }];
  }
  return split(wire, blocks, fields);
}

function split(wire: unknown, blocks: readonly Part[], fields: Fields): Message[] {
  const results = blocks.filter((part) => part.type === 'tool-result');
  const rest = blocks.filter((part) => part.type !== 'tool-result');
  const order = blocks.map((part) => (part.type === 'tool-result' ? 't' : 'u')).join('');
  const interleaved = !/^t*u*$/.test(order);
  const toolFields: Fields = {
    ...fields,
    split: rest.length > 0 ? 2 : 1,
    order: interleaved ? order : undefined,
  };
  const messages: Message[] = [
    { role: 'tool', parts: results, meta: decodedMessageMeta(wire, results, toolFields) },
  ];
  if (rest.length > 0) {
    messages.push({
      role: 'user',
      parts: rest,
      meta: decodedMessageMeta(wire, rest, { group: fields['group'], split: 2 }),
    });
  }
  return messages;
}
