import type { DetectScore } from '../codec.js';
import { isWireObject, type WireObject } from '../wire-object.js';

/** Block types only Anthropic uses: their presence makes a message list distinctively Anthropic. */
const DISTINCT_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
]);

/** Block types Anthropic shares with nothing else it would confuse. */
const PLAIN_BLOCKS = new Set(['text', 'document', 'search_result']);

/** How many messages detection looks at. */
const SAMPLE = 50;

/**
 * 2 for a request or message list with Anthropic blocks (tool_use, tool_result, thinking, image with a
 * `source`) or a top-level `system`, 1 for plain user/assistant messages, 0 for anything else — including
 * OpenAI messages (system/tool roles, `tool_calls`, `image_url`), AI SDK parts and Claude Code records.
 */
export function detectAnthropic(wire: unknown): DetectScore {
  if (Array.isArray(wire)) return wire.length === 0 ? 0 : scoreMessages(wire);
  if (!isWireObject(wire) || !Array.isArray(wire['messages'])) return 0;
  const messages = wire['messages'];
  const system = wire['system'];
  const hasSystem = typeof system === 'string' || Array.isArray(system);
  if (messages.length === 0) return hasSystem ? 2 : 1;
  const score = scoreMessages(messages);
  return score === 0 ? 0 : hasSystem ? 2 : score;
}

function scoreMessages(messages: readonly unknown[]): DetectScore {
  let score: DetectScore = 1;
  for (const message of messages.slice(0, SAMPLE)) {
    if (!isWireObject(message)) return 0;
    if (message['role'] !== 'user' && message['role'] !== 'assistant') return 0;
    if ('tool_calls' in message || 'function_call' in message) return 0;
    const content = message['content'];
    if (typeof content === 'string') continue;
    if (!Array.isArray(content)) return 0;
    for (const block of content) {
      const verdict = scoreBlock(block);
      if (verdict === 0) return 0;
      if (verdict === 2) score = 2;
    }
  }
  return score;
}

function scoreBlock(block: unknown): DetectScore {
  if (!isWireObject(block)) return 0;
  const type = block['type'];
  if (typeof type !== 'string') return 0;
  if (DISTINCT_BLOCKS.has(type)) return 2;
  if (type === 'image') return isWireObject((block as WireObject)['source']) ? 2 : 0;
  return PLAIN_BLOCKS.has(type) ? 1 : 0;
}
