import fc from 'fast-check';
import type { Message } from '../../src/model/message.js';
import type { Part, ToolCallPart, ToolResultPart } from '../../src/model/part.js';
import { renderCheckpoint } from '../../src/transforms/checkpoint-text.js';
import { image, long, text } from './support.js';

// Long outputs drawn from a small pool so that generated transcripts contain exact duplicates.
const OUTPUTS = [
  long('pool one'),
  long('pool two', 900),
  long('Traceback (most recent call last):\nValueError: bad'),
  'short ok',
  '',
];

const argumentsArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    JSON.stringify({ command: 'npm test' }),
    JSON.stringify({ file_path: '/repo/src/a.ts', offset: 3, limit: 20 }),
    JSON.stringify({ pattern: 'TODO', path: 'src' }),
    JSON.stringify({ url: 'https://example.com/docs' }),
    JSON.stringify({ query: 'how to x' }),
    JSON.stringify({ file_path: '/r/b.ts', old_string: 'a', new_string: 'b' }),
    JSON.stringify({ file_path: '/r/c.ts', content: 'y'.repeat(900) }),
    JSON.stringify({ prompt: `see ./docs/x.md ${'z'.repeat(700)}`, description: 'sub task' }),
    `{"broken": "${'q'.repeat(600)}`,
    '',
  ),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify({ data: value })),
);

interface CallSpec {
  readonly name: string;
  readonly args: string;
  readonly output: string;
  readonly isError: boolean;
  readonly withImage: boolean;
}

const callArb: fc.Arbitrary<CallSpec> = fc.record({
  name: fc.constantFrom('Bash', 'Read', 'Grep', 'WebFetch', 'Edit', 'Write', 'Task', 'TodoWrite', 'lookup'),
  args: argumentsArb,
  output: fc.oneof(fc.constantFrom(...OUTPUTS), fc.string({ maxLength: 300 })),
  isError: fc.boolean(),
  withImage: fc.constantFrom(false, false, false, true),
});

interface StepSpec {
  readonly text: string | null;
  readonly reasoning: boolean;
  readonly calls: readonly CallSpec[];
  readonly grouped: boolean;
}

const stepArb: fc.Arbitrary<StepSpec> = fc.record({
  text: fc.option(fc.constantFrom('Let me look.', 'Done.', long('explanation', 300)), { nil: null }),
  reasoning: fc.boolean(),
  calls: fc.array(callArb, { maxLength: 3 }),
  grouped: fc.boolean(),
});

type UserSpec = 'text' | 'image' | 'checkpoint' | 'hermes' | 'checkpoint-and-request' | 'double';

interface TurnSpec {
  readonly user: UserSpec;
  readonly steps: readonly StepSpec[];
  readonly reply: string | null;
  readonly doubleReply: boolean;
}

const turnArb: fc.Arbitrary<TurnSpec> = fc.record({
  user: fc.constantFrom<UserSpec>(
    'text',
    'text',
    'text',
    'image',
    'checkpoint',
    'hermes',
    'checkpoint-and-request',
    'double',
  ),
  steps: fc.array(stepArb, { maxLength: 5 }),
  reply: fc.option(fc.constantFrom('All done.', 'Here is what I found.'), { nil: null }),
  doubleReply: fc.boolean(),
});

/** Valid transcripts: system prompts, user turns (checkpoints, images, repeats) and tool steps with unique ids. */
export const transcriptArb: fc.Arbitrary<Message[]> = fc
  .record({
    systems: fc.integer({ min: 0, max: 2 }),
    turns: fc.array(turnArb, { minLength: 1, maxLength: 6 }),
  })
  .map(({ systems, turns }) => build(systems, turns));

/** Transcripts with random messages removed: orphan calls, orphan results, results out of place. */
export const brokenTranscriptArb: fc.Arbitrary<Message[]> = fc
  .tuple(transcriptArb, fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }))
  .map(([messages, keep]) =>
    messages.filter((_, index) => keep[index % keep.length] !== false || index % 3 === 0),
  );

function build(systems: number, turns: readonly TurnSpec[]): Message[] {
  const messages: Message[] = [];
  let next = 0;
  for (let index = 0; index < systems; index++)
    messages.push({ role: 'system', parts: [text(`system ${index}`)] });
  turns.forEach((turn, turnIndex) => {
    messages.push(...userMessages(turn.user, turnIndex));
    for (const step of turn.steps) {
      const parts: Part[] = [];
      if (step.reasoning) parts.push({ type: 'reasoning', text: 'thinking' });
      if (step.text !== null) parts.push(text(step.text));
      const calls: ToolCallPart[] = step.calls.map((spec) => ({
        type: 'tool-call',
        id: `call_${next++}`,
        name: spec.name,
        arguments: spec.args,
      }));
      if (calls.length === 0 && step.text === null) parts.push(text('...'));
      messages.push({ role: 'assistant', parts: [...parts, ...calls] });
      const results: ToolResultPart[] = step.calls.map((spec, callIndex) => ({
        type: 'tool-result',
        callId: (calls[callIndex] as ToolCallPart).id,
        content: spec.withImage ? [text(spec.output), image()] : [text(spec.output)],
        ...(spec.isError ? { isError: true } : {}),
      }));
      if (step.grouped && results.length > 0) messages.push({ role: 'tool', parts: results });
      else for (const result of results) messages.push({ role: 'tool', parts: [result] });
    }
    if (turn.reply !== null) messages.push({ role: 'assistant', parts: [text(turn.reply)] });
    if (turn.doubleReply) messages.push({ role: 'assistant', parts: [text('One more thing.')] });
  });
  return messages;
}

function userMessages(spec: UserSpec, turn: number): Message[] {
  switch (spec) {
    case 'text':
      return [{ role: 'user', parts: [text(`request ${turn}`)] }];
    case 'image':
      return [
        {
          role: 'user',
          parts: [text(`look ${turn}`), image(turn % 2 === 0 ? undefined : 'https://x.test/a.png')],
        },
      ];
    case 'checkpoint':
      return [{ role: 'user', parts: [text(renderCheckpoint(`notes ${turn}`, 'extractive'))] }];
    case 'hermes':
      return [{ role: 'user', parts: [text(`[CONTEXT SUMMARY]: notes ${turn}`)] }];
    case 'checkpoint-and-request':
      return [
        { role: 'user', parts: [text(renderCheckpoint(`notes ${turn}`, 'model')), text(`request ${turn}`)] },
      ];
    case 'double':
      return [
        { role: 'user', parts: [text(`first half ${turn}`)] },
        { role: 'user', parts: [text(`second half ${turn}`)] },
      ];
  }
}
