import { maxOf, minOf } from '../../model/arrays.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import { hashUuid } from '../claude-code/uuid.js';
import { callTypesOf, encodeMessageItems } from '../openai-responses/encode-items.js';
import { ordered } from '../openai-responses/encode-parts.js';
import { hasIntactOrigin } from '../openai-responses/meta.js';
import { CODEX, isTypedLine } from './records.js';

/** Timestamp of lines written for a transcript that has none to copy (no clock in the core). */
const EPOCH = '1970-01-01T00:00:00.000Z';

interface Placed {
  readonly pos: number;
  readonly order: number;
  readonly record: unknown;
}

/**
 * Encodes a transcript as the lines of a Codex rollout.
 * - Untouched: the very lines that were read (the document layer writes their original bytes).
 * - Changed: the lines before the first message that changed are kept as they are (compactions included: what
 *   precedes them is unchanged); after it, unchanged messages keep their lines, changed and new messages become
 *   `response_item` lines (timestamped like the line they replace or the one before), Codex's compactions and
 *   rollbacks are dropped (their effect is in the messages now, so Codex resumes exactly this conversation), and
 *   events stay while the message they follow does. Session metadata, turn contexts and turn events are kept.
 *   A changed system prompt is written into `session_meta`'s base instructions.
 * - From another format: a minimal rollout (a `session_meta` line with an id derived from the content, leading
 *   system messages as base instructions, one `response_item` line per item, timestamps at the Unix epoch).
 * Tool results answer built-in calls with `function_call_output`, as Codex writes them.
 */
export function encodeRollout(transcript: Transcript): unknown[] {
  const origin = transcript.meta?.origin;
  if (origin?.format === CODEX && origin.messages === transcript.messages && Array.isArray(origin.wire)) {
    return origin.wire as unknown[];
  }
  const meta = transcript.meta?.codec?.[CODEX];
  if (meta === undefined) return freshRollout(transcript.messages);
  const script = meta['script'];
  if (isJsonObject(script)) return [scriptDocument(transcript.messages, script)];
  return rewrite(transcript.messages, meta);
}

function codexOf(message: Message): JsonObject {
  return message.meta?.codec?.[CODEX] ?? {};
}

function refsOf(message: Message): JsonObject[] {
  const refs = codexOf(message)['records'];
  return Array.isArray(refs) ? refs.filter(isJsonObject) : [];
}

function itemsOf(message: Message, callTypes: ReadonlyMap<string, string>): JsonObject[] {
  return encodeMessageItems(message, { callTypes, nativeOutputs: false });
}

/** The item a line holds: the payload of a typed line, an early rollout's bare item, or a derived item. */
function refItem(ref: JsonObject): unknown {
  if (ref['item'] !== undefined) return ref['item'];
  const record = ref['record'];
  return isTypedLine(record) ? (record as JsonObject)['payload'] : record;
}

function unchanged(message: Message, callTypes: ReadonlyMap<string, string>): boolean {
  if (hasIntactOrigin(message, CODEX)) return true;
  const refs = refsOf(message);
  if (refs.length === 0) return false;
  return JSON.stringify(itemsOf(message, callTypes)) === JSON.stringify(refs.map(refItem));
}

function isInstructions(message: Message): boolean {
  return codexOf(message)['instructions'] === true;
}

function messageText(message: Message): string {
  return message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

function rewrite(messages: readonly Message[], meta: JsonObject): unknown[] {
  const callTypes = callTypesOf(messages);
  const instructions = messages.find(isInstructions);
  const conversation = messages.filter((message) => message !== instructions);
  let prefix = 0;
  while (
    prefix < conversation.length &&
    codexOf(conversation[prefix] as Message)['seq'] === prefix &&
    unchanged(conversation[prefix] as Message, callTypes)
  ) {
    prefix++;
  }
  const side = Array.isArray(meta['side']) ? meta['side'].filter(isJsonObject) : [];
  const whole = prefix === conversation.length && conversation.length === meta['messageCount'];
  const prefixEnd = whole
    ? Number.POSITIVE_INFINITY
    : Math.max(-1, ...conversation.slice(0, prefix).flatMap((message) => refsOf(message).map(posOf)));
  const present = new Set(conversation.map((message) => codexOf(message)['seq']));
  const placed: Placed[] = [];
  const taken = new Set<number>();
  const take = (pos: number, record: unknown): void => {
    if (taken.has(pos)) return;
    taken.add(pos);
    placed.push({ pos, order: 0, record });
  };
  for (const message of conversation.slice(0, prefix)) {
    for (const ref of refsOf(message)) if (ref['record'] !== undefined) take(posOf(ref), ref['record']);
  }
  // Early rollouts hold bare items: new lines follow the file's style.
  const typed = side.length === 0 || side.some((entry) => isTypedLine(entry['record']));
  placeRest(conversation.slice(prefix), prefixEnd, { placed, take, callTypes, typed, side });
  for (const entry of side) {
    const pos = posOf(entry);
    const fate = entry['fate'];
    const kept =
      pos <= prefixEnd || fate === 'keep' || (fate === 'owned' && present.has(entry['owner'] as JsonValue));
    if (kept) take(pos, withInstructions(entry['record'], instructions));
  }
  return placed
    .sort((left, right) => left.pos - right.pos || left.order - right.order)
    .map((item) => item.record);
}

function posOf(ref: JsonObject): number {
  return typeof ref['pos'] === 'number' ? ref['pos'] : -1;
}

interface Placing {
  readonly placed: Placed[];
  readonly take: (pos: number, record: unknown) => void;
  readonly callTypes: ReadonlyMap<string, string>;
  readonly typed: boolean;
  readonly side: readonly JsonObject[];
}

/** Places the messages after the unchanged prefix: their own lines when unchanged and still in order, else new ones. */
function placeRest(messages: readonly Message[], start: number, placing: Placing): void {
  let cursor = start;
  let order = 1;
  let timestamp = timestampBefore(placing.side, start);
  for (const message of messages) {
    const refs = refsOf(message);
    const positions = refs.map(posOf);
    const own =
      refs.length > 0 && refs.every((ref) => ref['item'] === undefined && ref['record'] !== undefined);
    if (own && minOf(positions) > cursor && unchanged(message, placing.callTypes)) {
      for (const ref of refs) placing.take(posOf(ref), ref['record']);
      cursor = maxOf(positions);
      timestamp = timestampOf(refs.at(-1)?.['record']) ?? timestamp;
      continue;
    }
    const pos = Math.max(cursor, positions[0] ?? cursor);
    timestamp = timestampOf(refs[0]?.['record']) ?? timestamp;
    for (const item of itemsOf(message, placing.callTypes)) {
      const record = placing.typed ? { timestamp, type: 'response_item', payload: item } : item;
      placing.placed.push({ pos, order: order++, record });
    }
    cursor = pos;
  }
}

function timestampOf(record: unknown): string | undefined {
  if (!isJsonObject(record)) return undefined;
  const value = record['timestamp'];
  return typeof value === 'string' ? value : undefined;
}

function timestampBefore(side: readonly JsonObject[], pos: number): string {
  let found: string | undefined;
  for (const entry of side) if (posOf(entry) <= pos) found = timestampOf(entry['record']) ?? found;
  return found ?? timestampOf(side[0]?.['record']) ?? EPOCH;
}

/** A `session_meta` line with changed base instructions written in; any other line as it is. */
function withInstructions(record: unknown, instructions: Message | undefined): unknown {
  if (instructions === undefined || hasIntactOrigin(instructions, CODEX) || !isJsonObject(record))
    return record;
  const text = messageText(instructions);
  const typed = isTypedLine(record) && record['type'] === 'session_meta';
  const payload = typed ? (record['payload'] as JsonObject) : record;
  if (!typed && !(typeof payload['id'] === 'string' && 'timestamp' in payload && !('type' in payload)))
    return record;
  const patched = isJsonObject(payload['base_instructions'])
    ? { ...payload, base_instructions: { ...payload['base_instructions'], text } }
    : { ...payload, instructions: text };
  return typed ? { ...record, payload: patched } : patched;
}

function freshRollout(messages: readonly Message[]): unknown[] {
  const leading: Message[] = [];
  for (const message of messages) {
    if (message.role !== 'system') break;
    leading.push(message);
  }
  const rest = messages.slice(leading.length);
  const id = hashUuid(`codex|${JSON.stringify(messages.map((message) => [message.role, message.parts]))}`);
  const text = leading.map(messageText).join('\n\n');
  const payload: JsonObject = {
    id,
    timestamp: EPOCH,
    cwd: '',
    originator: 'condense',
    cli_version: '0.0.0',
    ...(leading.length > 0 ? { base_instructions: { text } } : {}),
  };
  const callTypes = callTypesOf(messages);
  return [
    { timestamp: EPOCH, type: 'session_meta', payload },
    ...rest.flatMap((message) =>
      itemsOf(message, callTypes).map((item) => ({ timestamp: EPOCH, type: 'response_item', payload: item })),
    ),
  ];
}

/** The first CLI's `{session, items}` document with the transcript's items. */
function scriptDocument(messages: readonly Message[], script: JsonObject): JsonObject {
  const callTypes = callTypesOf(messages);
  const instructions = messages.find(isInstructions);
  const rest = isJsonObject(script['rest']) ? script['rest'] : {};
  const session = isJsonObject(rest['session']) ? rest['session'] : {};
  const items = messages
    .filter((message) => message !== instructions)
    .flatMap((message) =>
      unchanged(message, callTypes) ? refsOf(message).map(refItem) : itemsOf(message, callTypes),
    );
  const patched =
    instructions === undefined || hasIntactOrigin(instructions, CODEX)
      ? session
      : { ...session, instructions: messageText(instructions) };
  return ordered(script['keys'], { ...rest, session: patched, items });
}
