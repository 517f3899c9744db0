import { Buffer } from 'node:buffer';
import { isObjectSpan, type JsonlLines, keyPattern } from '../io/jsonl-scan.js';
import { isJsonObject } from '../model/json.js';
import { SESSION_SCHEMA_PREFIX } from './line-schema.js';
import type { SessionFormat } from './session-types.js';

/** What the loader needs to know about a session format's record types. */
export interface SessionDialect {
  readonly format: SessionFormat;
  /** Record types holding a message of the conversation. */
  readonly messageTypes: ReadonlySet<string>;
  /** Record types that always carry `uuid` and `parentUuid` at top level (the byte probe may trust one match). */
  readonly chainTypes: ReadonlySet<string>;
  /** Record types parsed whatever their place (titles, last prompt, header): small and needed for side channels. */
  readonly sideTypes: ReadonlySet<string>;
  /** Record types known to the format; others are reported as unknown. */
  readonly knownTypes: ReadonlySet<string>;
  /** Message records that can hang off the chain as parallel tool results (re-attached by tool_use_id). */
  readonly resultTypes: ReadonlySet<string>;
  /** Records carry `isSidechain` (subagent records). */
  readonly sidechains: boolean;
  /** True for a parsed root record that is a compaction boundary. */
  isBoundary(record: unknown): boolean;
}

const CLAUDE_CODE_CHAIN = ['user', 'assistant', 'system', 'progress', 'attachment'];
const CLAUDE_CODE_SIDE = ['summary', 'custom-title', 'ai-title', 'last-prompt', 'queue-operation'];
const CLAUDE_CODE_OTHER = ['file-history-snapshot', 'permission-mode', 'mode', 'pr-link'];

/** Claude Code project session files (`~/.claude/projects/<project>/<session>.jsonl`). */
export const CLAUDE_CODE_DIALECT: SessionDialect = {
  format: 'claude-code',
  messageTypes: new Set(['user', 'assistant']),
  chainTypes: new Set(CLAUDE_CODE_CHAIN),
  sideTypes: new Set(CLAUDE_CODE_SIDE),
  knownTypes: new Set([
    ...CLAUDE_CODE_CHAIN,
    ...CLAUDE_CODE_SIDE,
    ...CLAUDE_CODE_OTHER,
    'cost-state',
    'agent-setting',
  ]),
  resultTypes: new Set(['user']),
  sidechains: true,
  isBoundary: (record) =>
    isJsonObject(record) &&
    ((record['type'] === 'system' && record['subtype'] === 'compact_boundary') ||
      typeof record['logicalParentUuid'] === 'string'),
};

/** condense's own session log (see `line-schema.ts`). */
export const CONDENSE_DIALECT: SessionDialect = {
  format: 'condense',
  messageTypes: new Set(['message']),
  chainTypes: new Set(['message', 'compaction']),
  sideTypes: new Set(['session', 'title']),
  knownTypes: new Set(['session', 'message', 'compaction', 'attachment', 'title']),
  resultTypes: new Set(),
  sidechains: false,
  isBoundary: (record) => isJsonObject(record) && record['type'] === 'compaction',
};

const SCHEMA_KEY = keyPattern('schema');
const SCHEMA_PREFIX = Buffer.from(`"${SESSION_SCHEMA_PREFIX}`, 'utf8');

/** The dialect of a session file, told by its first line: condense logs start with a `schema` key. */
export function detectDialect(buf: Buffer, lines: JsonlLines): SessionDialect {
  if (lines.count === 0) return CLAUDE_CODE_DIALECT;
  const start = lines.starts[0] as number;
  const end = lines.ends[0] as number;
  if (!isObjectSpan(buf, start, end)) return CLAUDE_CODE_DIALECT;
  const head = buf.subarray(start, Math.min(end, start + 64));
  const key = head.indexOf(SCHEMA_KEY);
  return key !== -1 && head.indexOf(SCHEMA_PREFIX, key + SCHEMA_KEY.length) !== -1
    ? CONDENSE_DIALECT
    : CLAUDE_CODE_DIALECT;
}
