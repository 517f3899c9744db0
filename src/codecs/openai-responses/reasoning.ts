import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { ReasoningPart } from '../../model/part.js';
import { metaObject, ownMeta } from './meta.js';

/**
 * The readable text of a reasoning item: its summaries joined by blank lines, or, when it has none, its
 * `reasoning_text` content (open-weight models, Codex's raw reasoning). Encrypted content is never text.
 */
export function reasoningText(item: JsonObject): string {
  const summary = texts(item['summary'], 'summary_text');
  if (summary.length > 0) return summary.join('\n\n');
  return texts(item['content'], 'reasoning_text').join('\n\n');
}

function texts(list: unknown, type: string): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) =>
    isJsonObject(entry) &&
    (entry['type'] === type || entry['type'] === 'text') &&
    typeof entry['text'] === 'string'
      ? [entry['text']]
      : [],
  );
}

/**
 * The reasoning item for a part decoded from one: the original item, byte for byte, while its text and
 * encrypted data are unchanged; else the item with its summary (or reasoning content) rewritten. `undefined`
 * for reasoning from another format, which the API would reject (it accepts only its own reasoning items).
 */
export function encodeReasoning(part: ReasoningPart): JsonObject | undefined {
  const item = metaObject(ownMeta(part), 'item');
  if (item === undefined) return undefined;
  const data = item['encrypted_content'];
  const sameData = part.data === (typeof data === 'string' ? data : undefined);
  if (sameData && part.text === reasoningText(item)) return item;
  const out: Record<string, unknown> = { ...item };
  if (part.data === undefined) delete out['encrypted_content'];
  else out['encrypted_content'] = part.data;
  const summary = Array.isArray(item['summary']) ? item['summary'] : [];
  if (summary.length > 0 || !Array.isArray(item['content'])) {
    out['summary'] = part.text === '' ? [] : [{ type: 'summary_text', text: part.text }];
  } else {
    out['content'] = part.text === '' ? [] : [{ type: 'reasoning_text', text: part.text }];
  }
  return out as JsonObject;
}
