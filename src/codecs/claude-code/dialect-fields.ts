import { isJsonObject } from '../../model/json.js';
import type { Transcript } from '../../model/transcript.js';
import { fieldCount } from '../portable/field-count.js';
import { CC } from './records.js';

/** Record keys that say something beyond where the record sits in the session, counted one by one. */
const NOTABLE_KEYS = ['toolUseResult', 'isMeta', 'isCompactSummary', 'todos', 'thinkingMetadata'];

/**
 * What a Claude Code session carries besides the conversation: each message record's envelope (`uuid`,
 * `parentUuid`, `timestamp`, `cwd`…) and notable fields (`toolUseResult`…), counted per record, and every other
 * record by type (progress, snapshots, queue operations, system records, records of dead branches…).
 */
export function claudeCodeDialectFields(transcript: Transcript): Readonly<Record<string, number>> {
  const count = fieldCount();
  for (const message of transcript.messages) {
    const records = message.meta?.codec?.[CC]?.['records'];
    if (!Array.isArray(records)) continue;
    for (const entry of records) {
      const record = isJsonObject(entry) ? entry['record'] : undefined;
      if (!isJsonObject(record)) continue;
      count.add('record envelope (uuid, parentUuid, timestamp, cwd, sessionId…)');
      for (const key of NOTABLE_KEYS) if (record[key] !== undefined) count.add(key);
    }
  }
  const side = transcript.meta?.codec?.[CC]?.['side'];
  if (Array.isArray(side)) {
    for (const entry of side) {
      const record = isJsonObject(entry) ? entry['record'] : undefined;
      const type = isJsonObject(record) && typeof record['type'] === 'string' ? record['type'] : 'unreadable';
      count.add(`${type} records${type === 'user' || type === 'assistant' ? ' off the active branch' : ''}`);
    }
  }
  return count.counts;
}
