import type { Message } from '../../model/message.js';
import type { DecodeIssue } from '../codec.js';

/**
 * Reports tool calls that no later message answers and results that answer no earlier call. Real sessions have
 * both (interrupted turns, rewinds), so these are warnings: the transcript is still decoded as it is.
 */
export function checkPairs(messages: readonly Message[], issues: DecodeIssue[]): void {
  const open = new Map<string, number>();
  const seen = new Set<string>();
  messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        open.set(part.id, index);
        seen.add(part.id);
      } else if (part.type === 'tool-result') {
        if (seen.has(part.callId)) open.delete(part.callId);
        else {
          issues.push({
            code: 'orphan-result',
            severity: 'warning',
            message: `message ${index} holds a result for ${part.callId}, which no earlier message calls`,
            path: [],
          });
        }
      }
    }
  });
  for (const [id, index] of open) {
    issues.push({
      code: 'missing-result',
      severity: 'warning',
      message: `tool call ${id} in message ${index} has no result`,
      path: [],
    });
  }
}
