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
  // One entry per message (holes for messages without results), then by part: no key string per result.
  const answered: ((ToolCallPart | undefined)[] | undefined)[] = [];
  for (const message of messages) {
    let calls: (ToolCallPart | undefined)[] | undefined;
    const parts = message.parts;
    for (let partIndex = 0; partIndex < parts.length; partIndex++) {
      const part = parts[partIndex] as (typeof parts)[number];
      if (part.type === 'tool-call') latest.set(part.id, part);
      else if (part.type === 'tool-result') {
        const call = latest.get(part.callId);
        if (call === undefined) continue;
        calls ??= [];
        calls[partIndex] = call;
      }
    }
    answered.push(calls);
  }
  return {
    callFor(messageIndex, partIndex) {
      return answered[messageIndex]?.[partIndex];
    },
  };
}
