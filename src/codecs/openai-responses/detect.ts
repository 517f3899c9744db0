import { isJsonObject } from '../../model/json.js';
import type { DetectScore } from '../codec.js';
import { isDistinctiveItem } from './item-kinds.js';

/** Items detection looks at. */
const SAMPLE = 50;

/**
 * 2 for a response object, a request body whose `input` is a string or holds Responses items, and an item list
 * with Responses items (calls, outputs, reasoning, messages with `input_text`/`output_text` parts); 1 for a
 * request whose `input` holds only plain role/content messages; 0 otherwise (chat `messages`, Codex rollout
 * records, other formats).
 */
export function detectResponses(wire: unknown): DetectScore {
  if (Array.isArray(wire)) return scoreItems(wire) === 2 ? 2 : 0;
  if (!isJsonObject(wire)) return 0;
  if ('messages' in wire || 'payload' in wire) return 0;
  if (wire['object'] === 'response' && Array.isArray(wire['output'])) return 2;
  const input = wire['input'];
  if (typeof input === 'string') return 'model' in wire || 'instructions' in wire ? 2 : 0;
  if (!Array.isArray(input)) return 0;
  if (input.length === 0) return 'model' in wire ? 1 : 0;
  return scoreItems(input);
}

function scoreItems(items: readonly unknown[]): DetectScore {
  if (items.length === 0) return 0;
  let score: DetectScore = 1;
  for (const item of items.slice(0, SAMPLE)) {
    if (!isJsonObject(item)) return 0;
    if (isDistinctiveItem(item)) score = 2;
    else if (!(typeof item['role'] === 'string' && 'content' in item)) return 0;
  }
  return score;
}
