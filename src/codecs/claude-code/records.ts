import { isJsonObject, type JsonObject } from '../../model/json.js';

/** Key of this codec's entries in part, message and transcript meta. */
export const CC = 'claude-code';

/** Record types that carry no message but are known parts of a session file. */
export const SIDE_RECORD_TYPES: ReadonlySet<string> = new Set([
  'progress',
  'system',
  'file-history-snapshot',
  'summary',
  'queue-operation',
  'attachment',
  'last-prompt',
  'permission-mode',
  'custom-title',
  'ai-title',
  'mode',
  'pr-link',
  'cost-state',
  'agent-setting',
]);

/** A `user` or `assistant` record whose `message.content` is a string or an array: one piece of a message. */
export interface MessageRecord {
  readonly record: JsonObject;
  readonly type: 'user' | 'assistant';
  readonly message: JsonObject;
  readonly content: string | readonly unknown[];
}

/** The message view of a record, or `undefined` for records that hold no readable message. */
export function asMessageRecord(record: unknown): MessageRecord | undefined {
  if (!isJsonObject(record)) return undefined;
  const type = record['type'];
  if (type !== 'user' && type !== 'assistant') return undefined;
  const message = record['message'];
  if (!isJsonObject(message)) return undefined;
  const content = message['content'];
  if (typeof content !== 'string' && !Array.isArray(content)) return undefined;
  return { record, type, message, content };
}

/** A record's `uuid`, when it has one. */
export function uuidOf(record: unknown): string | undefined {
  if (!isJsonObject(record)) return undefined;
  const uuid = record['uuid'];
  return typeof uuid === 'string' ? uuid : undefined;
}

/** A record's `parentUuid`: a string, `null` for a root, `undefined` when the record has none. */
export function parentOf(record: unknown): string | null | undefined {
  if (!isJsonObject(record)) return undefined;
  const parent = record['parentUuid'];
  if (parent === null) return null;
  return typeof parent === 'string' ? parent : undefined;
}

/** The API message id of an assistant record (`message.id`), shared by the records of one response. */
export function responseIdOf(record: MessageRecord): string | undefined {
  const id = record.message['id'];
  return record.type === 'assistant' && typeof id === 'string' ? id : undefined;
}

/** True when a user record carries at least one `tool_result` block (it decodes to a tool message). */
export function hasToolResults(record: MessageRecord): boolean {
  return (
    Array.isArray(record.content) &&
    record.content.some((block) => isJsonObject(block) && block['type'] === 'tool_result')
  );
}

/** A JSON object with some keys left out. */
export function omitKeys(object: JsonObject, keys: readonly string[]): JsonObject | undefined {
  const out: Record<string, JsonObject[string]> = {};
  let any = false;
  for (const [key, value] of Object.entries(object)) {
    if (keys.includes(key)) continue;
    out[key] = value;
    any = true;
  }
  return any ? out : undefined;
}
