import { isJsonObject } from '../../model/json.js';
import type { Codec, DetectScore } from '../codec.js';
import { RESPONSES_CAPABILITIES } from '../openai-responses/index.js';
import { decodeRollout } from './decode.js';
import { encodeRollout } from './encode.js';
import { classifyRecord, isLegacyMeta, isScriptRollout, isTypedLine } from './records.js';

export { type DecodedRollout, decodeRollout, type RolloutDecodeOptions } from './decode.js';
export { encodeRollout } from './encode.js';
export type {
  RolloutBoundary,
  RolloutEntry,
  RolloutReading,
  RolloutRollback,
  RolloutView,
} from './read-rollout.js';
export {
  CODEX,
  eventType,
  isContextualUserText,
  isPromptItem,
  itemText,
  type RolloutRecord,
} from './records.js';

/**
 * Scores one parsed line as a rollout line: 2 for typed lines (`session_meta`, `response_item`, `compacted`,
 * `turn_context`, `event_msg`), early state lines, an early metadata line with instructions or git data, and the
 * first CLI's `{session, items}` document; 1 for a bare Responses item or metadata line (early rollouts); 0
 * otherwise (a JSON array is never one line).
 */
export function detectRolloutRecord(wire: unknown): DetectScore {
  if (!isJsonObject(wire)) return 0;
  if (isScriptRollout(wire)) return 2;
  const record = classifyRecord(wire, 0, true);
  switch (record.kind) {
    case 'session-meta':
      return isLegacyMeta(wire) && !('instructions' in wire || 'git' in wire) ? 1 : 2;
    case 'compacted':
    case 'turn-context':
    case 'event':
    case 'state':
      return 2;
    case 'item':
      return 'payload' in wire ? 2 : 1;
    case 'unknown':
      // A line kind newer than condense (Codex adds them): plausible when it has the typed line's shape.
      return isTypedLine(wire) && typeof wire['timestamp'] === 'string' ? 1 : 0;
    default:
      return 0;
  }
}

/**
 * Codex CLI session rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one line per record, the whole file
 * one transcript. See {@link decodeRollout} and {@link encodeRollout}.
 */
export const codexCodec: Codec = {
  format: 'codex',
  fileLayout: 'records',
  capabilities: RESPONSES_CAPABILITIES,
  detect: detectRolloutRecord,
  decode: (wire) => decodeRollout(wire),
  encode: encodeRollout,
};
