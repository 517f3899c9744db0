import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { textPart, withParts } from '../../src/model/message-helpers.js';
import type { Part, ToolCallPart } from '../../src/model/part.js';
import {
  DEFAULT_EMPTY_ASSISTANT_TEXT,
  DEFAULT_STUB_TEXT,
  type SanitizeToolPairsOptions,
  type SanitizeToolPairsResult,
  sanitizeToolPairs,
} from '../../src/transforms/sanitize-tool-pairs.js';
import { brokenTranscriptArb, transcriptArb } from './arbitraries.js';

// The implementation before its group-closing closure became a module function (oracle).
interface OpenGroup {
  readonly at: number;
  readonly pending: Map<string, ToolCallPart>;
  readonly answered: Set<string>;
  readonly repeated: Set<ToolCallPart>;
}

function oldSanitizeToolPairs(
  messages: readonly Message[],
  options: SanitizeToolPairsOptions = {},
): SanitizeToolPairsResult {
  const stub = (options.orphanCalls ?? 'strip') === 'stub';
  const stubText = options.stubText ?? DEFAULT_STUB_TEXT;
  const emptyText = options.emptyAssistantText ?? DEFAULT_EMPTY_ASSISTANT_TEXT;
  const out: Message[] = [];
  const sources: number[] = [];
  const counts = { removedResults: 0, removedCalls: 0, stubbed: 0, removedMessages: 0 };
  let changed = false;
  let group: OpenGroup | undefined;

  const close = (): void => {
    if (group === undefined) return;
    const missing = [...group.pending.values()].filter((call) => !group?.answered.has(call.id));
    const drop = new Set<Part>(group.repeated);
    if (stub) {
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
    if (missing.length > 0 || drop.size > 0) changed = true;
    group = undefined;
  };

  for (const [index, message] of messages.entries()) {
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
    close();
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
  close();
  return { messages: changed ? out : messages, ...counts, sources };
}

function stubMessage(call: ToolCallPart, text: string): Message {
  return { role: 'tool', parts: [{ type: 'tool-result', callId: call.id, content: [textPart(text)] }] };
}

function withoutCalls(message: Message, drop: ReadonlySet<Part>, emptyText: string): Message {
  const parts = message.parts.filter((part) => !drop.has(part));
  const visible = parts.some(
    (part) => part.type !== 'reasoning' && (part.type !== 'text' || part.text.trim() !== ''),
  );
  return withParts(message, visible ? parts : [...parts, textPart(emptyText)]);
}

/** Call ids mapped onto a few, so calls repeat an id within a message and across turns. */
function reuseIds(messages: readonly Message[], pick: readonly number[]): Message[] {
  let next = 0;
  const id = (): string => `id${pick[next++ % pick.length] ?? 0}`;
  return messages.map((message) => ({
    ...message,
    parts: message.parts.map((part): Part => {
      if (part.type === 'tool-call') return { ...part, id: id() };
      if (part.type === 'tool-result') return { ...part, callId: id() };
      return part;
    }),
  }));
}

const inputArb: fc.Arbitrary<Message[]> = fc.oneof(
  transcriptArb,
  brokenTranscriptArb,
  fc
    .tuple(brokenTranscriptArb, fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 9 }))
    .map(([messages, pick]) => reuseIds(messages, pick)),
);

const optionsArb: fc.Arbitrary<SanitizeToolPairsOptions> = fc.record(
  {
    orphanCalls: fc.constantFrom<'strip' | 'stub'>('strip', 'stub'),
    stubText: fc.constantFrom('stub', ''),
    emptyAssistantText: fc.constantFrom('empty', ''),
  },
  { requiredKeys: [] },
);

/** The result with each output message replaced by the input index it is the same object as, when it is one. */
function identities(input: readonly Message[], result: SanitizeToolPairsResult): unknown[] {
  return result.messages.map((message) => input.indexOf(message));
}

describe('sanitizeToolPairs against its former implementation', () => {
  it('gives the same result and keeps the same message objects', () => {
    fc.assert(
      fc.property(inputArb, optionsArb, (input, options) => {
        const expected = oldSanitizeToolPairs(input, options);
        const actual = sanitizeToolPairs(input, options);
        expect(actual).toEqual(expected);
        expect(actual.messages === input).toBe(expected.messages === input);
        expect(identities(input, actual)).toEqual(identities(input, expected));
      }),
      { numRuns: 400 },
    );
  });
});
