import { isJsonObject } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type { Role } from '../../model/role.js';
import type { DecodeIssue } from '../codec.js';
import { decodeBlock, isKnownBlock } from './blocks.js';
import { hasToolResults, type MessageRecord } from './records.js';

/** The parts of one record and the role its message has. */
export interface DecodedRecord {
  readonly role: Role;
  readonly parts: Part[];
  /** `string` when `message.content` was a plain string. */
  readonly shape: 'string' | 'array';
}

/**
 * Decodes one `user`/`assistant` record. Assistant records → assistant parts (text, reasoning with signature,
 * tool calls); user records with `tool_result` blocks → a tool message (any text blocks beside the results stay
 * in it, in block order); other user records → user text/images. Unknown blocks become opaque parts and an issue.
 */
export function decodeRecord(record: MessageRecord, index: number, issues: DecodeIssue[]): DecodedRecord {
  const role: Role = record.type === 'assistant' ? 'assistant' : hasToolResults(record) ? 'tool' : 'user';
  if (typeof record.content === 'string') {
    return { role, parts: [{ type: 'text', text: record.content }], shape: 'string' };
  }
  const parts = record.content.map((block, blockIndex) => {
    const part = decodeBlock(block);
    if (part.type === 'opaque') {
      const known = isKnownBlock(block);
      issues.push({
        code: 'unknown-block',
        severity: isJsonObject(block) ? 'warning' : 'error',
        message: known
          ? `record ${index} has a "${part.kind}" block of an unexpected shape; it is carried as is`
          : `record ${index} has a block of type "${part.kind}" condense does not read; it is carried as is`,
        path: [index, 'message', 'content', blockIndex],
      });
    }
    return part;
  });
  return { role, parts, shape: 'array' };
}
