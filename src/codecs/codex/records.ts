import { isJsonObject, type JsonObject } from '../../model/json.js';
import { isDistinctiveItem, lookup } from '../openai-responses/item-kinds.js';

/** Key of this codec's data in message and transcript codec meta. */
export const CODEX = 'codex';

/** What a rollout line is. */
export type RecordKind =
  /** `session_meta` (or the untyped first line of early rollouts): session id, cwd, instructions. */
  | 'session-meta'
  /** `response_item` (or a bare item in early rollouts): what the model saw or said. */
  | 'item'
  /** `compacted`: Codex's own compaction, a summary and (since late 2025) the replacement history. */
  | 'compacted'
  | 'turn-context'
  | 'event'
  /** `{"record_type": "state"}` lines of early rollouts. */
  | 'state'
  /** A typed line of a kind condense does not read (kept as it is). */
  | 'unknown'
  | 'invalid';

/** One line of a rollout, classified, with its payload. */
export interface RolloutRecord {
  readonly index: number;
  readonly kind: RecordKind;
  /** The record's payload (`payload` of typed lines, the line itself in early rollouts). */
  readonly payload: JsonObject;
  readonly timestamp: string | undefined;
}

/** Line types of the current rollout format (`{timestamp, type, payload}`). */
const TYPED: Readonly<Record<string, RecordKind>> = {
  session_meta: 'session-meta',
  response_item: 'item',
  compacted: 'compacted',
  turn_context: 'turn-context',
  event_msg: 'event',
};

/** Classifies one parsed line; `first` says whether it opens the file (early rollouts start with bare metadata). */
export function classifyRecord(value: unknown, index: number, first: boolean): RolloutRecord {
  if (!isJsonObject(value)) return { index, kind: 'invalid', payload: {}, timestamp: undefined };
  const timestamp = typeof value['timestamp'] === 'string' ? value['timestamp'] : undefined;
  const type = value['type'];
  const payload = value['payload'];
  if (typeof type === 'string' && isJsonObject(payload) && !('role' in value)) {
    return { index, kind: lookup(TYPED, type) ?? 'unknown', payload, timestamp };
  }
  if (value['record_type'] === 'state') return { index, kind: 'state', payload: value, timestamp };
  if (first && isLegacyMeta(value)) return { index, kind: 'session-meta', payload: value, timestamp };
  if (isItem(value)) return { index, kind: 'item', payload: value, timestamp };
  return { index, kind: 'unknown', payload: value, timestamp };
}

/** The first line of an early rollout: `{id, timestamp, instructions?, git?}` without a `type`. */
export function isLegacyMeta(value: JsonObject): boolean {
  return (
    value['type'] === undefined &&
    typeof value['id'] === 'string' &&
    typeof value['timestamp'] === 'string' &&
    !('role' in value)
  );
}

function isItem(value: JsonObject): boolean {
  if (isDistinctiveItem(value)) return true;
  const type = value['type'];
  return (
    (type === 'message' || type === undefined) && typeof value['role'] === 'string' && 'content' in value
  );
}

/** True for the modern typed line shape `{timestamp?, type, payload}`. */
export function isTypedLine(value: unknown): boolean {
  return isJsonObject(value) && typeof value['type'] === 'string' && isJsonObject(value['payload']);
}

/**
 * The rollout file the first TypeScript Codex CLI wrote (`rollout-*.json`): one JSON object with `session`
 * metadata and the `items` of the conversation.
 */
export function isScriptRollout(value: unknown): value is JsonObject & { items: unknown[] } {
  return isJsonObject(value) && isJsonObject(value['session']) && Array.isArray(value['items']);
}

/** The event type of an `event_msg` payload. */
export function eventType(record: RolloutRecord): string | undefined {
  const type = record.payload['type'];
  return record.kind === 'event' && typeof type === 'string' ? type : undefined;
}

/**
 * Text that opens the user messages Codex writes itself (environment, AGENTS.md and skill instructions, shell
 * commands the user ran, aborted turns, subagent notices): context, not a request of the person.
 */
const CONTEXT_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<user_shell_command>',
  '<turn_aborted>',
  '<subagent_notification>',
  '<skill>',
  '<permissions instructions>',
  '<collaboration_mode>',
  '<personality_spec>',
  '<model_switch>',
];

/** True for a user message item holding Codex's own context rather than something the person typed. */
export function isContextualUserText(text: string): boolean {
  const trimmed = text.trimStart();
  return CONTEXT_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
}

/** The text of a message item's content (string or parts), parts joined by newlines. */
export function itemText(item: JsonObject): string {
  const content = item['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part) => (isJsonObject(part) && typeof part['text'] === 'string' ? [part['text']] : []))
    .join('\n');
}

/** True for a user message item the person wrote (not Codex's context). */
export function isPromptItem(item: unknown): boolean {
  if (!isJsonObject(item) || item['role'] !== 'user') return false;
  if (item['type'] !== undefined && item['type'] !== 'message') return false;
  return !isContextualUserText(itemText(item));
}

/** True for an item the model produced (its turn): anything but user/system messages and tool outputs. */
export function isModelItem(item: JsonObject): boolean {
  const type = item['type'];
  if (type === undefined || type === 'message') return item['role'] === 'assistant';
  return typeof type === 'string' && !type.endsWith('_output') && type !== 'mcp_approval_response';
}
