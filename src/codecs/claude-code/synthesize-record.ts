import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import { foreignBlock } from './foreign-block.js';
import { freshUuid, hashHex, isUuid } from './uuid.js';

/** Envelope keys a new record copies from its neighbour, in Claude Code's order. */
const ENVELOPE_KEYS = [
  'isSidechain',
  'userType',
  'cwd',
  'sessionId',
  'version',
  'gitBranch',
  'agentId',
  'slug',
] as const;

/** What a new record is built from besides its message. */
export interface SynthesisContext {
  readonly parent: string | null;
  /** The nearest kept record (previous message first): envelope fields and timestamp are copied from it. */
  readonly neighbour: JsonObject | undefined;
  /** Position of the message in the transcript, mixed into the derived uuid. */
  readonly index: number;
  /** Uuids already in the file; the new one avoids them. */
  readonly used: ReadonlySet<string>;
  /** Session id for files with no record to copy one from. */
  readonly sessionId: () => string;
}

/**
 * One record for a message that has no record yet (new, or from another format). User text becomes string
 * content, like a typed prompt; tool messages become user records of `tool_result` blocks; assistant messages
 * become one assistant record holding every block, with `model` copied from an assistant neighbour (else
 * `<synthetic>`) and zero usage. A system message becomes a `system` record (subtype `condense_system_prompt`):
 * Claude Code sends no system prompt from its files, and a user record would put the instructions in the person's
 * mouth. Parts from other formats become what the Anthropic API accepts (`foreignBlock`). The timestamp is the
 * neighbour's; with no kept record to copy one from (a conversion) the record has none, since the real time is
 * unknown and the core has no clock. The uuid is the message `id` when that is an unused UUID, else derived from
 * the parent, role, content and position.
 */
export function synthesizeRecord(message: Message, context: SynthesisContext): JsonObject {
  const content = contentOf(message);
  const contentText = JSON.stringify(content);
  const id = message.id;
  const uuid =
    id !== undefined && isUuid(id) && !context.used.has(id)
      ? id
      : freshUuid(`${context.parent}|${message.role}|${contentText}|${context.index}`, context.used);
  const neighbour = context.neighbour;
  const envelope: Record<string, JsonValue | undefined> = { parentUuid: context.parent };
  for (const key of ENVELOPE_KEYS) {
    const value = neighbour?.[key];
    if (value !== undefined) envelope[key] = value;
  }
  envelope['isSidechain'] ??= false;
  envelope['userType'] ??= 'external';
  envelope['sessionId'] ??= context.sessionId();
  const timestamp = typeof neighbour?.['timestamp'] === 'string' ? { timestamp: neighbour['timestamp'] } : {};
  if (message.role === 'system') {
    return {
      ...envelope,
      type: 'system',
      subtype: SYSTEM_PROMPT_SUBTYPE,
      content: message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'),
      isMeta: true,
      level: 'info',
      uuid,
      ...timestamp,
    };
  }
  if (message.role === 'assistant') {
    return {
      ...envelope,
      type: 'assistant',
      message: {
        id: `msg_condense_${hashHex(`${uuid}|${contentText}`).slice(0, 24)}`,
        type: 'message',
        role: 'assistant',
        model: modelOf(neighbour) ?? '<synthetic>',
        content,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
      uuid,
      ...timestamp,
    };
  }
  return { ...envelope, type: 'user', message: { role: 'user', content }, uuid, ...timestamp };
}

/** Subtype of the `system` record a system message is written as. */
export const SYSTEM_PROMPT_SUBTYPE = 'condense_system_prompt';

function contentOf(message: Message): JsonValue {
  const only = message.parts[0];
  if (
    message.role !== 'assistant' &&
    message.role !== 'tool' &&
    message.parts.length === 1 &&
    only?.type === 'text'
  ) {
    return only.text;
  }
  return message.parts.map(foreignBlock);
}

function modelOf(record: JsonObject | undefined): string | undefined {
  if (record?.['type'] !== 'assistant') return undefined;
  const message = record['message'];
  return isJsonObject(message) && typeof message['model'] === 'string' ? message['model'] : undefined;
}
