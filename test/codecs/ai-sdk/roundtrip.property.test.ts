import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkCodec, decodeAiSdk, encodeAiSdk } from '../../../src/codecs/ai-sdk/index.js';
import type { Message } from '../../../src/model/message.js';
import { stripOrigins } from '../../../src/model/origins.js';
import type { Part } from '../../../src/model/part.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { transcriptArb } from '../claude-code/transcript-arbitrary.js';
import { schemaFailures } from './schema.js';

/**
 * What survives the AI SDK: everything but meta, result names (the AI SDK requires them, so they are added),
 * the error flag of results holding images (`content` outputs have none) and the part boundaries of error
 * results with several texts (one `error-text` value).
 */
function said(message: Message): unknown {
  return {
    role: message.role,
    parts: message.parts.map((part: Part) => {
      const { meta: _meta, ...rest } = part;
      if (rest.type !== 'tool-result') return rest;
      const { name: _name, isError, ...result } = rest;
      const images = rest.content.some((item) => item.type !== 'text');
      const content = rest.content.map(({ meta: _m, ...item }) => item);
      if (!isError || images) return { ...result, content };
      const text = rest.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
      return { ...result, content: [{ type: 'text', text }], isError };
    }),
  };
}

describe('ai-sdk round trip of generated transcripts (property)', () => {
  it('validates against modelMessageSchema and decodes back to the same messages', () => {
    fc.assert(
      fc.property(
        transcriptArb({ system: true, images: true, signatures: true, errors: true, groupResults: true }),
        (transcript) => {
          const wire = JSON.parse(JSON.stringify(encodeAiSdk(transcript)));
          expect(schemaFailures(wire)).toEqual([]);
          const back = decodeAiSdk(wire);
          expect(back.issues).toEqual([]);
          expect(back.value.messages.map(said)).toEqual(transcript.messages.map(said));
          expect(
            verifyTranscript(back.value).filter((violation) => violation.code !== 'empty-message'),
          ).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

const providerOptions = fc.dictionary(
  fc.constantFrom('anthropic', 'openai', 'x'),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 })),
  { maxKeys: 2 },
);
const output = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'error-text'), value: fc.string() }),
  fc.record({ type: fc.constantFrom('json', 'error-json'), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ type: fc.constant('execution-denied'), reason: fc.string() }, { requiredKeys: ['type'] }),
  fc.record({
    type: fc.constant('content'),
    value: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text'), text: fc.string() }),
        fc.record({
          type: fc.constantFrom('image-data', 'media'),
          data: fc.base64String({ maxLength: 8 }),
          mediaType: fc.constantFrom('image/png', 'audio/wav'),
        }),
        fc.record({ type: fc.constant('image-url'), url: fc.webUrl() }),
        fc.record({ type: fc.constant('file-url'), url: fc.webUrl() }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      { maxLength: 3 },
    ),
  }),
  fc.jsonValue({ maxDepth: 1 }),
);
const partArb = fc.oneof(
  fc.record(
    { type: fc.constant('text'), text: fc.string(), providerOptions },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record(
    { type: fc.constant('reasoning'), text: fc.string(), providerOptions },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record(
    {
      type: fc.constant('image'),
      image: fc.oneof(fc.webUrl(), fc.base64String({ maxLength: 8 }), fc.integer()),
      mediaType: fc.oneof(fc.string(), fc.integer()),
    },
    { requiredKeys: ['type', 'image'] },
  ),
  fc.record(
    {
      type: fc.constant('file'),
      data: fc.base64String({ maxLength: 8 }),
      mediaType: fc.constantFrom('image/png', 'application/pdf'),
      filename: fc.string(),
    },
    { requiredKeys: ['type', 'data', 'mediaType'] },
  ),
  fc.record(
    {
      type: fc.constant('tool-call'),
      toolCallId: fc.string({ maxLength: 4 }),
      toolName: fc.string({ maxLength: 4 }),
      input: fc.jsonValue({ maxDepth: 2 }),
      providerExecuted: fc.boolean(),
      extra: fc.string(),
    },
    { requiredKeys: ['type', 'toolCallId', 'toolName'] },
  ),
  fc.record(
    {
      type: fc.constant('tool-result'),
      toolCallId: fc.string({ maxLength: 4 }),
      toolName: fc.string({ maxLength: 4 }),
      output,
      providerOptions,
    },
    { requiredKeys: ['type', 'toolCallId', 'toolName', 'output'] },
  ),
  fc.record({
    type: fc.constantFrom('tool-approval-request', 'tool-approval-response'),
    approvalId: fc.string(),
    approved: fc.boolean(),
  }),
  fc.jsonValue({ maxDepth: 1 }),
);
const messageArb = fc.oneof(
  fc.record(
    {
      role: fc.constantFrom('system', 'user', 'assistant', 'tool', 'developer'),
      content: fc.oneof(fc.string(), fc.array(partArb, { maxLength: 4 })),
      providerOptions,
      name: fc.string(),
    },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.jsonValue({ maxDepth: 1 }),
);
const wireArb = fc.oneof(
  fc.array(messageArb, { maxLength: 6 }),
  fc.record(
    { messages: fc.array(messageArb, { maxLength: 6 }), model: fc.string() },
    { requiredKeys: ['messages'] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('ai-sdk decode of arbitrary values (property)', () => {
  it('never throws and encodes back to the same value, with and without origins', () => {
    fc.assert(
      fc.property(wireArb, (wire) => {
        aiSdkCodec.detect(wire);
        const { value } = decodeAiSdk(wire);
        if (value.meta?.origin !== undefined) expect(encodeAiSdk(value)).toBe(wire);
        expect(encodeAiSdk(stripOrigins(value))).toEqual(wire);
      }),
      { numRuns: 600 },
    );
  });
});
