import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { Transcript } from '../../model/transcript.js';
import type { DecodeIssue, DecodeResult } from '../codec.js';
import { activeChain } from './active-chain.js';
import { fileOrderWithinResponses, reattachResults } from './chain-order.js';
import { decodeRecord } from './decode-record.js';
import { groupRecords, type RecordGroup } from './merge-assistant.js';
import { checkPairs } from './pairs.js';
import { asMessageRecord, CC, parentOf, SIDE_RECORD_TYPES, uuidOf } from './records.js';
import { sideRecordsOf } from './side-records.js';

/** Options of {@link decodeClaudeCodeRecords}. */
export interface ClaudeCodeDecodeOptions {
  /**
   * The uuids of the records to read as the conversation, root first (e.g. the active branch chosen by a
   * session loader). Tool results that hang off the chain on side branches are re-attached by `tool_use_id`.
   * Records not read as messages are kept, in place, for re-encoding.
   * @default the active branch, as `condense replay` walks it ({@link activeChain})
   */
  readonly chain?: readonly string[];
  /**
   * Without `chain`: `full` reads the active branch across compaction boundaries; `context` reads only what the
   * model had after the last one (Claude Code's compact summary and what followed it). The records before it
   * stay in the file, in place. @default 'full'
   */
  readonly view?: 'full' | 'context';
}

/**
 * Decodes the parsed records of one Claude Code session file. The conversation is the active branch (the one a
 * resume follows, across compaction boundaries); records of dead branches (a rewind, `/clear`) are not messages
 * and stay where they are, with their links, like every other record. Messages: assistant records of one API response
 * (same `message.id`) merge into one message, blocks in file order (each response and its results in file order); user records with `tool_result` blocks
 * become tool messages; other user records user messages (`isMeta` and `isCompactSummary` records included and
 * flagged in `meta['claude-code']`). A message's `id` is the uuid of its first record; its records' envelopes
 * (everything but `message.content`) and file positions are kept in `meta.codec['claude-code']`. Every other
 * record (progress, system, snapshots, summaries, queue operations, unknown types, unreadable lines) is kept in
 * the transcript's codec meta with its position, so encoding an untouched transcript gives the file back. Never
 * throws: what it cannot read becomes an issue.
 */
export function decodeClaudeCodeRecords(
  wire: unknown,
  options: ClaudeCodeDecodeOptions = {},
): DecodeResult<Transcript> {
  const issues: DecodeIssue[] = [];
  if (!Array.isArray(wire)) {
    issues.push({
      code: 'invalid-shape',
      severity: 'error',
      message: 'expected the records of a session file',
      path: [],
    });
  }
  const records: readonly unknown[] = Array.isArray(wire) ? wire : [wire];
  const uuids = new Map<string, number>();
  records.forEach((record, index) => {
    const uuid = uuidOf(record);
    if (uuid !== undefined && !uuids.has(uuid)) uuids.set(uuid, index);
  });
  reportRecords(records, issues);
  const order =
    options.chain === undefined
      ? fileOrderWithinResponses(records, reattachResults(records, viewOf(records, options.view)))
      : chainOrder(records, options.chain, uuids, issues);
  const groups = groupRecords(records, order);
  const messages = groups.map((group, seq) => decodeGroup(records, group, seq, uuids, issues));
  checkPairs(messages, issues);
  const side = sideRecordsOf(records, groups, uuids);
  const transcript: Transcript = {
    messages,
    meta: {
      format: 'claude-code',
      origin: { format: 'claude-code', wire: records, messages },
      codec: { [CC]: { side, messageCount: messages.length } },
    },
  };
  return { value: transcript, issues };
}

/** The active chain, or its part from the last compact summary on. */
function viewOf(records: readonly unknown[], view: 'full' | 'context' | undefined): number[] {
  const chain = activeChain(records);
  if (view !== 'context') return chain;
  const boundaries = boundaryUuids(records);
  for (let at = chain.length - 1; at >= 0; at--) {
    if (isCompactSummary(records[chain[at] as number], boundaries)) return chain.slice(at);
  }
  return chain;
}

/** The uuids of every `compact_boundary` record, gathered once: looking for one per record was quadratic. */
function boundaryUuids(records: readonly unknown[]): Set<string> {
  const out = new Set<string>();
  for (const record of records) {
    if (!isJsonObject(record) || record['subtype'] !== 'compact_boundary') continue;
    const uuid = record['uuid'];
    if (typeof uuid === 'string') out.add(uuid);
  }
  return out;
}

/** Claude Code's compact summary: flagged, or the user record a `compact_boundary` leads to. */
function isCompactSummary(record: unknown, boundaries: ReadonlySet<string>): boolean {
  if (!isJsonObject(record) || record['type'] !== 'user') return false;
  if (record['isCompactSummary'] === true) return true;
  const parent = record['parentUuid'];
  return typeof parent === 'string' && boundaries.has(parent);
}

function reportRecords(records: readonly unknown[], issues: DecodeIssue[]): void {
  records.forEach((record, index) => {
    if (!isJsonObject(record)) {
      issues.push({
        code: 'invalid-shape',
        severity: 'error',
        message: `record ${index} is not a JSON object; it is kept as is`,
        path: [index],
      });
      return;
    }
    const type = record['type'];
    if ((type === 'user' || type === 'assistant') && asMessageRecord(record) === undefined) {
      issues.push({
        code: 'invalid-shape',
        severity: 'warning',
        message: `record ${index} is a ${type} record without a readable message; it is kept as is`,
        path: [index, 'message'],
      });
    } else if (
      type !== 'user' &&
      type !== 'assistant' &&
      !(typeof type === 'string' && SIDE_RECORD_TYPES.has(type))
    ) {
      issues.push({
        code: 'unknown-record',
        severity: 'warning',
        message: `record ${index} has type ${JSON.stringify(type ?? null)}, which condense does not read; it is kept as is`,
        path: [index, 'type'],
      });
    }
  });
}

function chainOrder(
  records: readonly unknown[],
  chain: readonly string[],
  uuids: ReadonlyMap<string, number>,
  issues: DecodeIssue[],
): number[] {
  const order: number[] = [];
  for (const uuid of chain) {
    const index = uuids.get(uuid);
    if (index === undefined) {
      issues.push({
        code: 'invalid-shape',
        severity: 'warning',
        message: `chain uuid ${uuid} names no record of the file`,
        path: [],
      });
    } else if (asMessageRecord(records[index]) !== undefined) order.push(index);
  }
  return fileOrderWithinResponses(records, reattachResults(records, order));
}

function decodeGroup(
  records: readonly unknown[],
  group: RecordGroup,
  seq: number,
  uuids: ReadonlyMap<string, number>,
  issues: DecodeIssue[],
): Message {
  const parts: Part[] = [];
  const entries: JsonValue[] = [];
  // Only assistant records share a group, so the first record's role is the message's role.
  let role: Message['role'] = 'user';
  group.forEach((index, position) => {
    const view = asMessageRecord(records[index]);
    if (view === undefined) return;
    const decoded = decodeRecord(view, index, issues);
    if (position === 0) role = decoded.role;
    for (const part of decoded.parts) parts.push(group.length > 1 ? tagRecord(part, position) : part);
    const parent = parentOf(view.record);
    const external = typeof parent === 'string' && !uuids.has(parent);
    entries.push({
      pos: index,
      record: { ...view.record, message: { ...view.message, content: null } },
      shape: decoded.shape,
      ...(external ? { external: true } : {}),
      // A record without blocks is written back as such instead of being taken for one a transform emptied.
      ...(decoded.parts.length === 0 ? { empty: true } : {}),
    });
  });
  const first = asMessageRecord(records[group[0] as number]);
  const codec: Record<string, JsonValue> = { seq, records: entries };
  if (first?.record['isMeta'] === true) codec['isMeta'] = true;
  if (first?.record['isCompactSummary'] === true) codec['isCompactSummary'] = true;
  const id = first === undefined ? undefined : uuidOf(first.record);
  return {
    role,
    parts,
    ...(id === undefined ? {} : { id }),
    meta: {
      origin: { format: 'claude-code', wire: group.map((index) => records[index]), parts },
      codec: { [CC]: codec },
      ...(codec['isMeta'] === true ? { injected: true } : {}),
    },
  };
}

function tagRecord(part: Part, position: number): Part {
  const own = part.meta?.[CC];
  const base: JsonObject = isJsonObject(own) ? own : {};
  return { ...part, meta: { ...part.meta, [CC]: { ...base, record: position } } };
}
