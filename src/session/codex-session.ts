import { Buffer } from 'node:buffer';
import { type DecodedRollout, decodeRollout, detectRolloutRecord } from '../codecs/codex/index.js';
import { eventType, isPromptItem, itemText, type RolloutRecord } from '../codecs/codex/records.js';
import { parseJsonLines } from '../codecs/document.js';
import { CondenseError } from '../errors/condense-error.js';
import { isJsonObject, stringOf } from '../model/json.js';
import type {
  LoadedSession,
  LoadSessionOptions,
  SessionBoundary,
  SessionIssue,
  SessionView,
} from './session-types.js';

/**
 * True when the bytes are a Codex CLI rollout: the first line is a rollout line (`session_meta` and the other
 * typed lines, or the untyped metadata line of early rollouts followed by a state line), or the whole file is
 * the first CLI's `{session, items}` document.
 */
export function isCodexRollout(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const firstEnd = lineEnd(buffer, 0);
  const first = buffer.subarray(0, firstEnd).toString('utf8').trim();
  if (first === '{') {
    const whole = parseLine(buffer.toString('utf8'));
    return isJsonObject(whole) && isJsonObject(whole['session']) && Array.isArray(whole['items']);
  }
  const value = parseLine(first);
  const score = detectRolloutRecord(value);
  if (score === 2) return !isJsonObject(value) || !('uuid' in value || 'sessionId' in value);
  const second = parseLine(buffer.subarray(firstEnd, lineEnd(buffer, firstEnd + 1)).toString('utf8'));
  return score === 1 && isJsonObject(second) && second['record_type'] === 'state';
}

function lineEnd(buffer: Buffer, from: number): number {
  const at = buffer.indexOf(0x0a, from);
  return at === -1 ? buffer.length : at;
}

function parseLine(line: string | undefined): unknown {
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Loads a Codex CLI rollout as a session: the conversation in the full view (the whole history, each of Codex's
 * compactions marked where it happened, rolled-back turns left out) or the context view (what the model sees
 * now: the newest compaction's replacement history and what followed). Rollouts are linear, so there are no
 * leaves to choose and no branches; rolled-back turns are counted as dead branches and reported. Never throws
 * on damaged content (unreadable lines are reported and skipped); throws `INVALID_OPTIONS` for a `leaf` option.
 */
export function loadCodexSession(bytes: Uint8Array, options: LoadSessionOptions = {}): LoadedSession {
  const fileName = options.fileName ?? '<session>';
  if (options.leaf !== undefined) {
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: `${fileName} is a Codex rollout: it has one linear history, so --leaf does not apply`,
      hint: 'leave out --leaf (use --context for what the model sees after the last compaction)',
    });
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const whole = wholeDocument(text);
  const parsed =
    whole === undefined
      ? parseJsonLines(text)
      : { values: [{ value: whole, line: 1, text }], invalid: [], issues: [] };
  const values = parsed.values.map((entry) => entry.value);
  const lineOf = (record: number): number => parsed.values[record]?.line ?? 1;
  const view: SessionView = options.view ?? 'full';
  const decoded = decodeRollout(whole === undefined ? values : whole, { view });
  const records = decoded.reading.records;
  const issues: SessionIssue[] = [
    ...parsed.issues.map(
      (issue): SessionIssue => ({
        code: issue.code,
        severity: issue.severity,
        message: issue.message,
        ...(issue.line === undefined ? {} : { line: issue.line }),
      }),
    ),
    ...decoded.issues.map((issue): SessionIssue => {
      const first = issue.path[0];
      return {
        code: issue.code,
        severity: issue.severity,
        message: issue.message,
        ...(typeof first === 'number' ? { line: lineOf(first) } : {}),
      };
    }),
    ...rollbackIssues(decoded, lineOf),
  ];
  if (parsed.values.length === 0 && parsed.invalid.length === 0)
    issues.push({ code: 'empty-session', severity: 'info', message: `${fileName} holds no records` });
  else if (decoded.value.messages.length === 0)
    issues.push({ code: 'no-messages', severity: 'info', message: `${fileName} holds no conversation` });
  const dead = decoded.reading.rollbacks.flatMap((rollback) => rollback.removed);
  const live = new Set(decoded.reading.entries.map((entry) => entry.record));
  return {
    format: 'codex',
    sessionId: stringOf(decoded.reading.meta?.payload['id']),
    view,
    transcript: decoded.value,
    leaf: undefined,
    chain: [],
    queuedPrompts: [],
    boundaries: boundariesOf(decoded, view, lineOf),
    deadBranches: {
      count: decoded.reading.rollbacks.length,
      branches: [],
      records: new Set(dead).size,
      sideRecords: 0,
      sidechainRecords: 0,
    },
    title: threadName(records),
    titles: [],
    lastPrompt: lastPrompt(decoded),
    lastActivity: lastActivity(records),
    model: modelOf(records),
    issues,
    stats: {
      bytes: bytes.byteLength,
      lines: parsed.values.length + parsed.invalid.length,
      parsedLines: parsed.values.length,
      parsedBytes: bytes.byteLength,
      liveLines: live.size,
      deadLines: new Set(dead).size,
      deadBytes: [...new Set(dead)].reduce(
        (sum, record) => sum + Buffer.byteLength(parsed.values[record]?.text ?? ''),
        0,
      ),
      prefilter: 'off',
    },
    recordUuids: new Set(),
  };
}

function wholeDocument(text: string): unknown {
  if (!/^\s*\{\s*"session"\s*:/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function boundariesOf(
  decoded: DecodedRollout,
  view: SessionView,
  lineOf: (record: number) => number,
): SessionBoundary[] {
  const { reading, messageOfEntry, value } = decoded;
  const tokens = tokensBefore(
    reading.records,
    reading.boundaries.map((boundary) => boundary.record),
  );
  return reading.boundaries.map((boundary) => {
    const record = reading.records[boundary.record];
    const messageIndex =
      boundary.entry < messageOfEntry.length
        ? (messageOfEntry[boundary.entry] ?? value.messages.length)
        : value.messages.length;
    return {
      uuid: `line:${lineOf(boundary.record)}`,
      line: lineOf(boundary.record),
      kind: 'codex-compaction',
      trigger: boundary.encrypted ? 'remote' : undefined,
      preTokens: tokens.get(boundary.record),
      logicalParentUuid: undefined,
      link: view === 'full' ? 'crossed' : 'start',
      messageIndex,
      preserved: { before: [], after: [] },
      metadata: {
        summaryChars: boundary.summary.length,
        ...(boundary.replacementItems === undefined ? {} : { replacementItems: boundary.replacementItems }),
        encrypted: boundary.encrypted,
      },
      timestamp: record?.timestamp,
    };
  });
}

/** The prompt size of the last request before a line, from Codex's `token_count` events. */
/**
 * For each of the `wanted` records, the input tokens of the last `token_count` event before it that reports them:
 * one pass over the records (looking back from each compaction was quadratic in a rollout without such events).
 */
function tokensBefore(
  records: readonly RolloutRecord[],
  wanted: readonly number[],
): Map<number, number | undefined> {
  const want = new Set(wanted);
  const out = new Map<number, number | undefined>();
  let last: number | undefined;
  for (const record of records) {
    if (want.has(record.index)) out.set(record.index, last);
    if (eventType(record) !== 'token_count') continue;
    const info = record.payload['info'];
    const usage = isJsonObject(info) ? info['last_token_usage'] : undefined;
    const input = isJsonObject(usage) ? usage['input_tokens'] : undefined;
    if (typeof input === 'number') last = input;
  }
  return out;
}

function rollbackIssues(decoded: DecodedRollout, lineOf: (record: number) => number): SessionIssue[] {
  return decoded.reading.rollbacks.map((rollback) => {
    const lines = rollback.removed.map(lineOf);
    // A loop, not Math.min(...lines): a rollback can remove more lines than a call takes arguments.
    let first = Number.POSITIVE_INFINITY;
    let final = Number.NEGATIVE_INFINITY;
    for (const line of lines) {
      first = Math.min(first, line);
      final = Math.max(final, line);
    }
    const span = lines.length === 0 ? 'nothing' : `lines ${first}–${final}`;
    return {
      code: 'rolled-back',
      severity: 'info',
      message: `line ${lineOf(rollback.record)} rolls back ${rollback.turns} turn(s): ${span} are not part of the conversation`,
      line: lineOf(rollback.record),
    };
  });
}

function threadName(records: readonly RolloutRecord[]): string | undefined {
  let name: string | undefined;
  for (const record of records) {
    if (eventType(record) === 'thread_name_updated') name = stringOf(record.payload['thread_name']) ?? name;
  }
  return name;
}

function lastPrompt(decoded: DecodedRollout): string | undefined {
  for (let at = decoded.reading.entries.length - 1; at >= 0; at--) {
    const entry = decoded.reading.entries[at];
    if (
      entry !== undefined &&
      isJsonObject(entry.item) &&
      (entry.source === 'event' || isPromptItem(entry.item))
    )
      return itemText(entry.item);
  }
  return undefined;
}

function lastActivity(records: readonly RolloutRecord[]): string | undefined {
  let newest: string | undefined;
  for (const record of records) {
    const stamp = record.timestamp;
    if (stamp !== undefined && /^\d{4}-\d\d-\d\dT/.test(stamp) && (newest === undefined || stamp > newest))
      newest = stamp;
  }
  return newest;
}

function modelOf(records: readonly RolloutRecord[]): string | undefined {
  let model: string | undefined;
  for (const record of records) {
    if (record.kind === 'turn-context' || record.kind === 'session-meta')
      model = stringOf(record.payload['model']) ?? model;
  }
  return model;
}
