import type { Transcript } from '../../model/transcript.js';
import { fieldCount } from '../portable/field-count.js';

/** What a ShareGPT entry carries besides its turns: entry keys (`tools`, `system`…) and extra turn keys. */
export function sharegptDialectFields(transcript: Transcript): Readonly<Record<string, number>> {
  const count = fieldCount();
  count.addKeys(transcript.meta?.codec?.sharegpt?.['fields'], '', ['conversations']);
  for (const message of transcript.messages) count.addKeys(message.meta?.codec?.sharegpt?.['extra'], 'turn.');
  return count.counts;
}
