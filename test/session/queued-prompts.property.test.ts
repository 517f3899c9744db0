import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { messageText } from '../../src/model/message-helpers.js';
import type { Transcript } from '../../src/model/transcript.js';
import { type QueueOperation, queuedPrompts } from '../../src/session/queued-prompts.js';
import type { QueuedPrompt } from '../../src/session/session-types.js';

/*
 * queuedPrompts reads every message once for all the queued prompts. The previous implementation, which asked
 * `includes` of every later message for each prompt, is kept here as the reference.
 */
function previousQueuedPrompts(
  operations: readonly QueueOperation[],
  transcript: Transcript,
  lineOf: (message: Message) => number | undefined,
): QueuedPrompt[] {
  const lines = transcript.messages.map(lineOf);
  const texts = transcript.messages.map((message) => (message.role === 'assistant' ? '' : sentText(message)));
  const pending: { operation: QueueOperation; status: QueuedPrompt['status'] }[] = [];
  const all: typeof pending = [];
  for (const operation of operations) {
    if (operation.operation === 'enqueue') {
      const item = { operation, status: 'pending' as QueuedPrompt['status'] };
      pending.push(item);
      all.push(item);
    } else if (operation.operation === 'dequeue') {
      const first = pending.shift();
      if (first !== undefined) first.status = 'dequeued';
    } else if (operation.operation === 'remove' || operation.operation === 'popAll') {
      const taken = operation.operation === 'popAll' ? pending.splice(0) : pending.splice(-1);
      for (const item of taken) item.status = 'removed';
    }
  }
  const out: QueuedPrompt[] = [];
  for (const { operation, status } of all) {
    const text = operation.text?.trim();
    if (text === undefined || text === '') continue;
    const delivered = texts.some(
      (said, at) => (lines[at] ?? Number.POSITIVE_INFINITY) > operation.line && carries(said, text),
    );
    if (delivered) continue;
    const afterMessage = lines.filter((line) => line !== undefined && line < operation.line).length;
    out.push({
      text,
      line: operation.line,
      status,
      afterMessage,
      ...(operation.timestamp === undefined ? {} : { timestamp: operation.timestamp }),
    });
  }
  return out;
}

function sentText(message: Message): string {
  const results = message.parts.flatMap((part) =>
    part.type === 'tool-result'
      ? part.content.flatMap((item) => (item.type === 'text' ? [item.text] : []))
      : [],
  );
  return [messageText(message), ...results].join('\n');
}

function carries(said: string, prompt: string): boolean {
  if (said.includes(prompt)) return true;
  const command = /^\/[\w:-]+/.exec(prompt)?.[0];
  return command !== undefined && said.includes(`<command-name>${command}</command-name>`);
}

// Few words, so prompts are often carried, partly carried or carried only before they were queued.
const wordArb = fc.constantFrom(
  'fix',
  'tests',
  'go',
  '/compact',
  '/review:pr',
  '<command-name>/compact</command-name>',
  ' ',
  '\n',
);
const textArb = fc.array(wordArb, { maxLength: 5 }).map((words) => words.join(''));
const lineArb = fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined, freq: 5 });

const messageArb = fc.record({
  role: fc.constantFrom('user', 'assistant', 'tool'),
  text: textArb,
  result: fc.option(textArb, { nil: undefined }),
  line: lineArb,
});

const operationArb = fc.record({
  line: fc.integer({ min: 1, max: 40 }),
  operation: fc.constantFrom('enqueue', 'enqueue', 'dequeue', 'remove', 'popAll', 'other'),
  text: fc.option(textArb, { nil: undefined }),
  timestamp: fc.option(fc.constant('2026-01-01T00:00:00Z'), { nil: undefined }),
});

describe('queuedPrompts', () => {
  it('finds the same queued prompts as asking every later message for each prompt', () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 12 }),
        fc.array(operationArb, { maxLength: 10 }),
        (specs, operations) => {
          const lines = new Map<Message, number | undefined>();
          const messages = specs.map((spec, index): Message => {
            const message: Message = {
              role: spec.role,
              id: `m${index}`,
              parts: [
                { type: 'text', text: spec.text },
                ...(spec.result === undefined
                  ? []
                  : [
                      {
                        type: 'tool-result' as const,
                        callId: `c${index}`,
                        content: [{ type: 'text' as const, text: spec.result }],
                      },
                    ]),
              ],
            };
            lines.set(message, spec.line);
            return message;
          });
          const transcript: Transcript = { messages };
          const lineOf = (message: Message) => lines.get(message);
          expect(queuedPrompts(operations, transcript, lineOf)).toEqual(
            previousQueuedPrompts(operations, transcript, lineOf),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
