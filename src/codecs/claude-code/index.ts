import { isJsonObject } from '../../model/json.js';
import { ANTHROPIC_CAPABILITIES } from '../anthropic-messages/capabilities.js';
import type { Codec, DetectScore } from '../codec.js';
import { decodeClaudeCodeRecords } from './decode.js';
import { claudeCodeDialectFields } from './dialect-fields.js';
import { encodeClaudeCodeRecords } from './encode-records.js';
import { SIDE_RECORD_TYPES } from './records.js';

export { type ClaudeCodeDecodeOptions, decodeClaudeCodeRecords } from './decode.js';
export { encodeClaudeCodeRecords } from './encode-records.js';

/**
 * Scores one parsed line as a Claude Code record: 2 for user/assistant records with a `message` and a
 * `uuid`/`sessionId`, and for known non-message records with their identifying keys; 1 for records of a type
 * not known yet that carry `sessionId` or sit in the `uuid`/`parentUuid` chain (Claude Code adds record types,
 * and one unknown line must not make a whole session unreadable); 0 otherwise (arrays included: a JSON array is
 * never one record).
 */
export function detectClaudeCodeRecord(wire: unknown): DetectScore {
  if (!isJsonObject(wire)) return 0;
  const type = wire['type'];
  if (typeof type !== 'string') return 0;
  const session = 'sessionId' in wire || 'uuid' in wire;
  if (type === 'user' || type === 'assistant') return isJsonObject(wire['message']) && session ? 2 : 0;
  if (type === 'summary') return 'leafUuid' in wire ? 2 : 0;
  if (type === 'file-history-snapshot') return 'snapshot' in wire ? 2 : 0;
  if (SIDE_RECORD_TYPES.has(type)) return session ? 2 : 1;
  return 'sessionId' in wire || ('uuid' in wire && 'parentUuid' in wire) ? 1 : 0;
}

/**
 * Claude Code session files (`~/.claude/projects/<project>/<session>.jsonl`): one JSONL record per line, the
 * whole file one transcript. See {@link decodeClaudeCodeRecords} and {@link encodeClaudeCodeRecords}.
 */
export const claudeCodeCodec: Codec = {
  format: 'claude-code',
  fileLayout: 'records',
  // Anthropic messages in records: no alternation rule, no system prompt field, a timestamp on every record.
  capabilities: {
    ...ANTHROPIC_CAPABILITIES,
    strictAlternation: false,
    systemPrompt: 'none',
    timestamps: true,
  },
  dialectFields: claudeCodeDialectFields,
  contextView: (transcript) => {
    const records = transcript.meta?.origin?.wire;
    if (!Array.isArray(records)) return undefined;
    const view = decodeClaudeCodeRecords(records, { view: 'context' }).value;
    return view.messages.length === transcript.messages.length ? undefined : view;
  },
  detect: detectClaudeCodeRecord,
  decode: (wire) => decodeClaudeCodeRecords(wire),
  encode: encodeClaudeCodeRecords,
};
