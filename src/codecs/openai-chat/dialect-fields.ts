import { isJsonObject } from '../../model/json.js';
import type { Transcript } from '../../model/transcript.js';
import { fieldCount } from '../portable/field-count.js';
import { MESSAGES_KEY } from './envelopes/envelope-kind.js';

/**
 * What a transcript read with the openai codec carries besides messages: the dataset envelope's keys (SWE-agent
 * `info`/`trajectory`, tau-bench `reward`, ToolBench `tree` and earlier snapshots, OpenHands eval fields), events
 * that are not messages, OpenHands event fields, and extra keys of messages and parts (`agent`, `thought`…).
 */
export function openaiDialectFields(transcript: Transcript): Readonly<Record<string, number>> {
  const count = fieldCount();
  const meta = transcript.meta?.codec?.openai;
  const envelope = meta?.['envelope'];
  const own = typeof envelope === 'string' ? (MESSAGES_KEY as Record<string, string>)[envelope] : undefined;
  count.addKeys(meta?.['rest'], '', [own ?? 'messages', 'history']);
  const skipped = meta?.['skipped'];
  if (Array.isArray(skipped)) count.add('OpenHands events that are not messages', skipped.length);
  const rest = meta?.['rest'];
  const generation = isJsonObject(rest) ? rest['answer_generation'] : undefined;
  const earlier = isJsonObject(generation) ? generation['train_messages'] : undefined;
  if (Array.isArray(earlier))
    count.add('answer_generation.train_messages (earlier snapshots)', earlier.length);
  for (const message of transcript.messages) {
    const codec = message.meta?.codec?.openai;
    count.addKeys(codec?.['extra'], 'message.');
    if (codec?.['event'] !== undefined) count.add('OpenHands event fields (id, timestamp, source…)');
    for (const part of message.parts) {
      const own = part.meta?.['openai'];
      if (!isJsonObject(own)) continue;
      // `type: "function"` of a tool call is what the canonical shape writes anyway.
      if (part.type === 'tool-call') {
        count.addKeys(own['extra'], 'tool_calls.', ['type']);
        count.addKeys(own['fnExtra'], 'tool_calls.function.');
      } else count.addKeys(own['extra'], `${part.type}.`);
    }
  }
  return count.counts;
}
