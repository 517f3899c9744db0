import type { Message } from '../model/message.js';
import { textPart, withParts } from '../model/message-helpers.js';
import type { Part, ToolCallPart } from '../model/part.js';

/** Options of {@link sanitizeToolPairs}. */
export interface SanitizeToolPairsOptions {
  /**
   * What happens to a call whose result is gone: `strip` removes the call (Hermes, #51218); `stub` answers it
   * with a short result saying the output is not in the transcript.
   * @default 'strip'
   */
  readonly orphanCalls?: 'strip' | 'stub';
  /** Text of a stub result. @default DEFAULT_STUB_TEXT */
  readonly stubText?: string;
  /** Text given to an assistant message left with nothing to show. @default DEFAULT_EMPTY_ASSISTANT_TEXT */
  readonly emptyAssistantText?: string;
}

/** Result of {@link sanitizeToolPairs}. */
export interface SanitizeToolPairsResult {
  /** The input array itself when nothing needed repair. */
  readonly messages: readonly Message[];
  /** Tool results removed: no matching call directly before them, or a second answer to one call. */
  readonly removedResults: number;
  /** Tool calls removed: no result (strip mode), or a repeated id within one message. */
  readonly removedCalls: number;
  /** Calls answered by a stub result (stub mode). */
  readonly stubbed: number;
  /** Tool messages removed because no result was left in them. */
  readonly removedMessages: number;
  /** Per output message, the index of the input message it is (or was repaired from); -1 for a stub result. */
  readonly sources: readonly number[];
}

/** Default stub result text. */
export const DEFAULT_STUB_TEXT =
  '[no output kept: the result of this call was folded into the compaction checkpoint or was never recorded]';
/** Default text of an assistant message whose only content was removed tool calls. */
export const DEFAULT_EMPTY_ASSISTANT_TEXT = '[tool call removed: its result was not kept]';

interface OpenGroup {
  /** Position of the calling assistant message in the output. */
  readonly at: number;
  readonly pending: Map<string, ToolCallPart>;
  readonly answered: Set<string>;
  readonly repeated: Set<ToolCallPart>;
}

/**
 * Makes tool calls and results pair up the way providers require: every call answered exactly once by the
 * tool messages right after its assistant message, and no result without such a call. Results are matched by
 * position, so transcripts that reuse call ids across turns keep their pairs. Orphan results are removed (a
 * tool message left without results goes too); orphan calls are removed or stubbed; an assistant message left
 * with nothing to show gets a short text. Messages that need no repair are returned as the same objects.
 */
export function sanitizeToolPairs(
  messages: readonly Message[],
  options: SanitizeToolPairsOptions = {},
): SanitizeToolPairsResult {
  const stub = (options.orphanCalls ?? 'strip') === 'stub';
  const stubText = options.stubText ?? DEFAULT_STUB_TEXT;
  const emptyText = options.emptyAssistantText ?? DEFAULT_EMPTY_ASSISTANT_TEXT;
  const out: Message[] = [];
  const sources: number[] = [];
  const counts: Counts = { removedResults: 0, removedCalls: 0, stubbed: 0, removedMessages: 0 };
  let changed = false;
  let group: OpenGroup | undefined;

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role === 'tool') {
      const kept = message.parts.filter((part) => {
        if (part.type !== 'tool-result') return true;
        if (group === undefined || !group.pending.has(part.callId) || group.answered.has(part.callId))
          return false;
        group.answered.add(part.callId);
        return true;
      });
      if (kept.length === message.parts.length) {
        out.push(message);
        sources.push(index);
        continue;
      }
      changed = true;
      counts.removedResults += message.parts.length - kept.length;
      if (kept.some((part) => part.type !== 'text' || part.text.trim() !== '')) {
        out.push(withParts(message, kept));
        sources.push(index);
      } else counts.removedMessages++;
      continue;
    }
    if (group !== undefined) {
      changed = closeGroup(group, out, sources, counts, stub ? stubText : undefined, emptyText) || changed;
      group = undefined;
    }
    if (message.role === 'assistant' && message.parts.some((part) => part.type === 'tool-call')) {
      const pending = new Map<string, ToolCallPart>();
      const repeated = new Set<ToolCallPart>();
      for (const part of message.parts) {
        if (part.type !== 'tool-call') continue;
        if (pending.has(part.id)) repeated.add(part);
        else pending.set(part.id, part);
      }
      group = { at: out.length, pending, answered: new Set(), repeated };
    }
    out.push(message);
    sources.push(index);
  }
  if (group !== undefined)
    changed = closeGroup(group, out, sources, counts, stub ? stubText : undefined, emptyText) || changed;
  return { messages: changed ? out : messages, ...counts, sources };
}

interface Counts {
  removedResults: number;
  removedCalls: number;
  stubbed: number;
  removedMessages: number;
}

/**
 * Ends an assistant turn's group: its calls left unanswered are stubbed (when `stubText` is given) or removed,
 * with any repeated ones. True when that changed something. A module function rather than a closure: tsx keeps
 * names, and naming a closure costs a defineProperty per call.
 */
function closeGroup(
  group: OpenGroup,
  out: Message[],
  sources: number[],
  counts: Counts,
  stubText: string | undefined,
  emptyText: string,
): boolean {
  const missing = [...group.pending.values()].filter((call) => !group.answered.has(call.id));
  const drop = new Set<Part>(group.repeated);
  if (stubText !== undefined) {
    for (const call of missing) {
      out.push(stubMessage(call, stubText));
      sources.push(-1);
    }
    counts.stubbed += missing.length;
  } else for (const call of missing) drop.add(call);
  if (drop.size > 0) {
    counts.removedCalls += drop.size;
    out[group.at] = withoutCalls(out[group.at] as Message, drop, emptyText);
  }
  return missing.length > 0 || drop.size > 0;
}

function stubMessage(call: ToolCallPart, text: string): Message {
  return { role: 'tool', parts: [{ type: 'tool-result', callId: call.id, content: [textPart(text)] }] };
}

/** The message without the given calls; one with nothing left to show gets `emptyText`. */
function withoutCalls(message: Message, drop: ReadonlySet<Part>, emptyText: string): Message {
  const parts = message.parts.filter((part) => !drop.has(part));
  const visible = parts.some(
    (part) => part.type !== 'reasoning' && (part.type !== 'text' || part.text.trim() !== ''),
  );
  return withParts(message, visible ? parts : [...parts, textPart(emptyText)]);
}
