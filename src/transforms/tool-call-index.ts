import type { Message } from '../model/message.js';
import type { ToolCallPart } from '../model/part.js';

/** Which call each tool result answers. */
export interface ToolCallIndex {
  /** The call answered by part `partIndex` of message `messageIndex`, if that part is a result with a call. */
  callFor(messageIndex: number, partIndex: number): ToolCallPart | undefined;
}

/**
 * Matches every tool result to the nearest earlier call with its id. Matching by position, not by id alone,
 * keeps transcripts that reuse call ids (replayed trajectories, some benchmarks) paired the way they were sent.
 */
export function indexToolCalls(messages: readonly Message[]): ToolCallIndex {
  const latest = new Map<string, ToolCallPart>();
  // By message, then part: no key string is built per result.
  const answered: (ToolCallPart | undefined)[][] = [];
  messages.forEach((message, messageIndex) => {
    message.parts.forEach((part, partIndex) => {
      if (part.type === 'tool-call') latest.set(part.id, part);
      else if (part.type === 'tool-result') {
        const call = latest.get(part.callId);
        if (call === undefined) return;
        let calls = answered[messageIndex];
        if (calls === undefined) {
          calls = [];
          answered[messageIndex] = calls;
        }
        calls[partIndex] = call;
      }
    });
  });
  return { callFor: (messageIndex, partIndex) => answered[messageIndex]?.[partIndex] };
}
