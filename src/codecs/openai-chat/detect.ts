import type { DetectScore } from '../codec.js';
import { isWireObject, type WireObject } from '../wire-object.js';
import { envelopeKind } from './envelopes/envelope-kind.js';

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** Content part types of other formats: Anthropic blocks, AI SDK parts. Their presence means "not OpenAI". */
const FOREIGN_PARTS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'web_search_tool_result',
  'document',
  'search_result',
  'tool-call',
  'tool-result',
  'tool-approval-request',
  'tool-approval-response',
  'image',
]);

/** How many messages detection looks at. */
const SAMPLE = 50;

/**
 * 2 for distinctive OpenAI shapes (tool calls, tool/function roles, dataset envelopes), 1 for plain role/content
 * messages, 0 otherwise, and 0 for message lists carrying Anthropic or AI SDK content blocks, top-level `system`
 * (an Anthropic request), ShareGPT or Claude Code records.
 */
export function detectOpenai(wire: unknown): DetectScore {
  const kind = envelopeKind(wire);
  switch (kind) {
    case undefined:
      return 0;
    case 'openhands-events':
    case 'openhands-output':
    case 'toolbench':
      return 2;
    case 'array':
      return (wire as unknown[]).length === 0 ? 0 : scoreMessages(wire as unknown[]);
    case 'messages': {
      const object = wire as WireObject;
      if ('system' in object) return 0;
      return scoreMessages(object['messages'] as unknown[], 1);
    }
    case 'tau-bench':
    case 'swe-agent': {
      const key = kind === 'tau-bench' ? 'traj' : 'history';
      return scoreMessages((wire as WireObject)[key] as unknown[], 1) === 0 ? 0 : 2;
    }
  }
}

function scoreMessages(messages: readonly unknown[], empty: DetectScore = 0): DetectScore {
  if (messages.length === 0) return empty;
  let score: DetectScore = 1;
  for (const message of messages.slice(0, SAMPLE)) {
    if (!isWireObject(message)) return 0;
    const role = message['role'];
    if (typeof role !== 'string' || !ROLES.has(role)) return 0;
    const content = message['content'];
    if (Array.isArray(content)) {
      for (const part of content) {
        const verdict = scorePart(part);
        if (verdict === 0) return 0;
        if (verdict === 2) score = 2;
      }
    }
    if (distinctive(message, role)) score = 2;
  }
  return score;
}

function scorePart(part: unknown): DetectScore {
  if (!isWireObject(part)) return 1;
  const type = part['type'];
  if (typeof type !== 'string' || FOREIGN_PARTS.has(type)) return 0;
  if (type === 'reasoning' && typeof part['text'] === 'string') return 0;
  if (type === 'file' && !isWireObject(part['file'])) return 0;
  if (type === 'image_url' || typeof part['value'] === 'string') return 2;
  return 1;
}

function distinctive(message: WireObject, role: string): boolean {
  if (role === 'tool' || role === 'function' || role === 'developer') return true;
  return (
    (Array.isArray(message['tool_calls']) && message['tool_calls'].length > 0) ||
    isWireObject(message['function_call']) ||
    typeof message['reasoning_content'] === 'string'
  );
}
