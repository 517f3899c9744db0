import { isJsonObject } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type { Transcript } from '../../model/transcript.js';
import { fieldCount } from '../portable/field-count.js';

/** What a transcript read as an Anthropic request carries besides messages: request keys, extra message and block keys. */
export function anthropicDialectFields(transcript: Transcript): Readonly<Record<string, number>> {
  const count = fieldCount();
  count.addKeys(transcript.meta?.codec?.anthropic?.['rest'], '', ['messages', 'system']);
  const parts = (part: Part): void => {
    const own = part.meta?.['anthropic'];
    if (isJsonObject(own)) count.addKeys(own['extra'], `${part.type === 'opaque' ? part.kind : part.type}.`);
    if (part.type === 'tool-result') for (const item of part.content) parts(item);
  };
  for (const message of transcript.messages) {
    count.addKeys(message.meta?.codec?.anthropic?.['extra'], 'message.');
    for (const part of message.parts) parts(part);
  }
  return count.counts;
}
