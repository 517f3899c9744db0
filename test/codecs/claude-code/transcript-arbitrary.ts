import fc from 'fast-check';
import type { Message } from '../../../src/model/message.js';
import type { Part, ToolResultContentPart } from '../../../src/model/part.js';
import type { Transcript } from '../../../src/model/transcript.js';

/** What a generated transcript may contain (each codec leaves out what its format cannot say). */
export interface TranscriptShape {
  readonly system?: boolean;
  readonly images?: boolean;
  readonly signatures?: boolean;
  readonly reasoning?: boolean;
  readonly errors?: boolean;
  /** Several results in one tool message (otherwise one tool message per result). */
  readonly groupResults?: boolean;
  /** Texts to generate. @default fc.string({ unit: 'grapheme' }) */
  readonly text?: fc.Arbitrary<string>;
}

const argumentsArb = fc
  .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
  .map((value) => JSON.stringify(value));

const imageArb: fc.Arbitrary<Part> = fc.oneof(
  fc
    .record({
      data: fc.base64String({ maxLength: 16 }),
      mediaType: fc.constantFrom('image/png', 'image/jpeg'),
    })
    .map(({ data, mediaType }): Part => ({ type: 'image', source: { kind: 'base64', data, mediaType } })),
  fc.webUrl().map((url): Part => ({ type: 'image', source: { kind: 'url', url } })),
);

/** Model transcripts with every tool call answered right after it, in the given shape. */
export function transcriptArb(shape: TranscriptShape = {}): fc.Arbitrary<Transcript> {
  const text = shape.text ?? fc.string({ unit: 'grapheme', maxLength: 40 });
  const textPart = text.map((value): Part => ({ type: 'text', text: value }));
  const reasoning: fc.Arbitrary<Part> = shape.signatures
    ? fc
        .record({ text, signature: fc.base64String({ minLength: 4, maxLength: 12 }) })
        .map(({ text: value, signature }) => ({ type: 'reasoning', text: value, signature }))
    : text.map((value): Part => ({ type: 'reasoning', text: value }));
  const userParts = shape.images
    ? fc.array(fc.oneof(textPart, imageArb), { minLength: 1, maxLength: 3 })
    : fc.array(textPart, { minLength: 1, maxLength: 1 });
  const resultContent: fc.Arbitrary<ToolResultContentPart[]> = shape.images
    ? fc.array(fc.oneof(textPart, imageArb) as fc.Arbitrary<ToolResultContentPart>, {
        minLength: 1,
        maxLength: 3,
      })
    : textPart.map((part) => [part as ToolResultContentPart]);
  const turn = fc.record({
    user: userParts,
    thought: shape.reasoning === false ? fc.constant(undefined) : fc.option(reasoning, { nil: undefined }),
    say: fc.option(textPart, { nil: undefined }),
    calls: fc.array(
      fc.record({
        name: fc.stringMatching(/^[a-z_]{1,12}$/),
        args: argumentsArb,
        content: resultContent,
        error: fc.boolean(),
      }),
      { maxLength: 3 },
    ),
  });
  return fc
    .record({
      system: shape.system ? fc.option(text, { nil: undefined }) : fc.constant(undefined),
      turns: fc.array(turn, { minLength: 1, maxLength: 4 }),
    })
    .map(({ system, turns }) => {
      const messages: Message[] = [];
      if (system !== undefined) messages.push({ role: 'system', parts: [{ type: 'text', text: system }] });
      turns.forEach((item, index) => {
        messages.push({ role: 'user', parts: item.user });
        const ids = item.calls.map((_, call) => `call_${index}_${call}`);
        const parts: Part[] = [];
        if (item.thought !== undefined) parts.push(item.thought);
        if (item.say !== undefined) parts.push(item.say);
        item.calls.forEach((call, at) => {
          parts.push({ type: 'tool-call', id: ids[at] as string, name: call.name, arguments: call.args });
        });
        if (parts.length === 0) parts.push({ type: 'text', text: 'ok' });
        messages.push({ role: 'assistant', parts });
        const results: Part[] = item.calls.map((call, at) => ({
          type: 'tool-result',
          callId: ids[at] as string,
          content: call.content,
          ...(shape.errors && call.error ? { isError: true } : {}),
        }));
        if (shape.groupResults && results.length > 0) messages.push({ role: 'tool', parts: results });
        else for (const result of results) messages.push({ role: 'tool', parts: [result] });
      });
      return { messages };
    });
}
