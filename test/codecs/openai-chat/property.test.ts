import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openaiCodec } from '../../../src/codecs/openai-chat/index.js';
import type { Message } from '../../../src/model/message.js';
import { stripOrigins } from '../../../src/model/origins.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { transcriptArbitrary } from './transcript-arbitrary.js';
import { withoutMeta } from './without-meta.js';

/**
 * The documented lossy cases of the OpenAI wire: a tool message holding several results is written as one tool
 * message per result; an image in a tool result becomes `[image omitted]` text (joined to the text before it);
 * `isError: false` is not written (a failure is marked in the text and reads back as `isError: true`).
 */
function expected(messages: readonly Message[]): unknown[] {
  return messages.flatMap((message) => {
    const parts = withoutMeta(message.parts).map((part) => {
      if (typeof part !== 'object' || part === null || (part as { type?: string }).type !== 'tool-result')
        return part;
      const { isError, content, ...rest } = part as { isError?: boolean; content: { type: string }[] };
      const texts = content.map((item) =>
        item.type === 'image' ? '[image omitted]' : (item as unknown as { text: string }).text,
      );
      const joined = content.some((item) => item.type === 'image')
        ? [{ type: 'text', text: texts.join('\n') }]
        : content;
      return { ...rest, content: joined, ...(isError === true ? { isError } : {}) };
    });
    if (message.role !== 'tool') return [{ role: message.role, parts }];
    return parts.map((part) => ({ role: 'tool', parts: [part] }));
  });
}

const wireMessage = fc.oneof(
  fc.record(
    {
      role: fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool', 'function', 'other'),
      content: fc.oneof(fc.string(), fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      role: fc.constant('assistant'),
      content: fc.oneof(fc.constant(null), fc.string()),
      tool_calls: fc.array(
        fc.record(
          {
            id: fc.string(),
            type: fc.constant('function'),
            function: fc.record(
              { name: fc.string(), arguments: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })) },
              { requiredKeys: ['name'] },
            ),
          },
          { requiredKeys: ['function'] },
        ),
        { maxLength: 3 },
      ),
      reasoning_content: fc.string(),
      name: fc.string(),
    },
    { requiredKeys: ['role'] },
  ),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.constant(null),
    function_call: fc.record({ name: fc.string(), arguments: fc.string() }),
  }),
  fc.record(
    {
      role: fc.constantFrom('tool', 'function'),
      content: fc.string(),
      tool_call_id: fc.string(),
      name: fc.string(),
      tool_call_ids: fc.array(fc.string()),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: ['role'] },
  ),
  fc.record({
    role: fc.constantFrom('user', 'assistant', 'tool'),
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text'), text: fc.string() }),
        fc.record({
          type: fc.constantFrom('text', 'reasoning', 'tool_call'),
          value: fc.oneof(
            fc.string(),
            fc.constant('{"name": "f", "arguments": {"a": 1}}'),
            fc.constant('[1, 2]'),
          ),
        }),
        fc.record({
          type: fc.constant('image_url'),
          image_url: fc.record(
            {
              url: fc.oneof(fc.webUrl(), fc.constant('data:image/png;base64,AAAA')),
              detail: fc.constant('high'),
            },
            { requiredKeys: ['url'] },
          ),
        }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      { maxLength: 4 },
    ),
  }),
);

/** A value as a file holds it (JSON text cannot tell -0 from 0). */
function asWritten(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe('openai codec properties', () => {
  it('gives back the same parts for generated transcripts (parallel calls, images, reasoning, repeated roles)', () => {
    fc.assert(
      fc.property(
        transcriptArbitrary({ signedReasoning: false, errorFlags: true, groupedResults: true }),
        (transcript) => {
          const back = openaiCodec.decode(openaiCodec.encode(transcript));
          expect(back.issues).toEqual([]);
          expect(expected(back.value.messages)).toEqual(expected(transcript.messages));
          expect(verifyTranscript(back.value, { provider: 'openai' })).toEqual(
            verifyTranscript(transcript, { provider: 'openai' }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary JSON and writes it back unchanged, with or without origins', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const { value: transcript } = openaiCodec.decode(value);
        expect(openaiCodec.encode(transcript)).toBe(value);
        expect(asWritten(openaiCodec.encode(stripOrigins(transcript)))).toEqual(asWritten(value));
      }),
      { numRuns: 500 },
    );
  });

  it('re-encodes arbitrary chat messages exactly from parts and meta alone', () => {
    fc.assert(
      fc.property(fc.array(wireMessage, { maxLength: 6 }), fc.boolean(), (messages, wrapped) => {
        const wire = wrapped ? { messages, tools: [] } : messages;
        const { value } = openaiCodec.decode(wire);
        expect(asWritten(openaiCodec.encode(stripOrigins(value)))).toEqual(asWritten(wire));
      }),
      { numRuns: 500 },
    );
  });
});
