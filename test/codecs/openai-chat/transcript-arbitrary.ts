import fc from 'fast-check';
import type { Message } from '../../../src/model/message.js';
import type { ImagePart, Part, ToolResultContentPart } from '../../../src/model/part.js';
import type { Transcript } from '../../../src/model/transcript.js';

/** What the generated transcripts may contain, per target wire format. */
export interface TranscriptShape {
  /** Reasoning parts carry a signature (Anthropic can only send signed reasoning). */
  readonly signedReasoning: boolean;
  /** Tool results may carry `isError` (OpenAI has no place for it). */
  readonly errorFlags: boolean;
  /** All results of one assistant turn may share one tool message. */
  readonly groupedResults: boolean;
}

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((value) => value.trim() !== '');

const image: fc.Arbitrary<ImagePart> = fc.oneof(
  fc.record({
    type: fc.constant('image' as const),
    source: fc.record({
      kind: fc.constant('base64' as const),
      data: fc.base64String({ minLength: 4, maxLength: 16 }),
      mediaType: fc.constantFrom('image/png', 'image/jpeg'),
    }),
  }),
  fc.record({
    type: fc.constant('image' as const),
    source: fc.record({
      kind: fc.constant('url' as const),
      url: fc.constantFrom('https://example.com/a.png', 'https://example.com/b.jpg?x=1'),
    }),
  }),
);

const argumentsText = fc
  .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 })
  .map((value) => JSON.stringify(value));

const resultContent: fc.Arbitrary<ToolResultContentPart[]> = fc.oneof(
  fc.constant<ToolResultContentPart[]>([]),
  text.map((value) => [{ type: 'text' as const, text: value }]),
  fc.tuple(text, image).map(([value, picture]) => [{ type: 'text' as const, text: value }, picture]),
);

function userMessage(): fc.Arbitrary<Message> {
  return fc.tuple(text, fc.option(image, { nil: undefined })).map(([value, picture]) => ({
    role: 'user',
    parts: picture === undefined ? [{ type: 'text', text: value }] : [{ type: 'text', text: value }, picture],
  }));
}

/** One turn: a user message (sometimes two), the assistant's answer with parallel calls, their results. */
function turn(shape: TranscriptShape, index: number): fc.Arbitrary<Message[]> {
  return fc
    .record({
      users: fc.array(userMessage(), { minLength: 1, maxLength: 2 }),
      reasoning: fc.option(text, { nil: undefined }),
      answer: fc.option(text, { nil: undefined }),
      extraAnswer: fc.option(text, { nil: undefined }),
      calls: fc.array(
        fc.record({
          name: fc.constantFrom('read_file', 'bash', 'search', 'edit'),
          args: argumentsText,
          content: resultContent,
          isError: fc.option(fc.boolean(), { nil: undefined }),
        }),
        { maxLength: 3 },
      ),
      grouped: fc.boolean(),
    })
    .map(({ users, reasoning, answer, extraAnswer, calls, grouped }) => {
      const parts: Part[] = [];
      if (reasoning !== undefined)
        parts.push(
          shape.signedReasoning
            ? { type: 'reasoning', text: reasoning, signature: `sig${index}` }
            : { type: 'reasoning', text: reasoning },
        );
      if (answer !== undefined || (calls.length === 0 && reasoning === undefined))
        parts.push({ type: 'text', text: answer ?? 'ok' });
      for (const [k, call] of calls.entries()) {
        parts.push({ type: 'tool-call', id: `call_${index}_${k}`, name: call.name, arguments: call.args });
      }
      const results = calls.map((call, k) => ({
        type: 'tool-result' as const,
        callId: `call_${index}_${k}`,
        content: call.content,
        ...(shape.errorFlags && call.isError !== undefined ? { isError: call.isError } : {}),
      }));
      const tools: Message[] =
        shape.groupedResults && grouped && results.length > 0
          ? [{ role: 'tool', parts: results }]
          : results.map((result) => ({ role: 'tool', parts: [result] }));
      const extra: Message[] =
        extraAnswer === undefined || calls.length > 0
          ? []
          : [{ role: 'assistant', parts: [{ type: 'text', text: extraAnswer }] }];
      return [...users, { role: 'assistant', parts }, ...tools, ...extra];
    });
}

/** Valid transcripts made by condense or another format (no codec meta): system prompt plus turns. */
export function transcriptArbitrary(shape: TranscriptShape): fc.Arbitrary<Transcript> {
  return fc
    .tuple(fc.option(text, { nil: undefined }), fc.integer({ min: 1, max: 4 }))
    .chain(([system, count]) =>
      fc.tuple(...Array.from({ length: count }, (_, index) => turn(shape, index))).map((turns) => ({
        messages: [
          ...(system === undefined
            ? []
            : [{ role: 'system' as const, parts: [{ type: 'text' as const, text: system }] }]),
          ...turns.flat(),
        ],
      })),
    );
}
