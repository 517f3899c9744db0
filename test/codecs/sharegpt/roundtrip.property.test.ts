import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeShareGpt, encodeShareGpt, sharegptCodec } from '../../../src/codecs/sharegpt/index.js';
import type { Message } from '../../../src/model/message.js';
import { stripOrigins } from '../../../src/model/origins.js';
import type { Part } from '../../../src/model/part.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { transcriptArb } from '../claude-code/transcript-arbitrary.js';

/** What survives ShareGPT: parts without ids, names or meta (ShareGPT has no call ids; result names are added). */
function said(message: Message): unknown {
  return {
    role: message.role,
    parts: message.parts.map((part: Part) => {
      if (part.type === 'tool-call') return { type: part.type, name: part.name, arguments: part.arguments };
      if (part.type === 'tool-result') return { type: part.type, content: part.content };
      const { meta: _meta, ...rest } = part;
      return rest;
    }),
  };
}

/** Texts ShareGPT writes without loss: no tags, no whitespace at the ends (it sits next to tags). */
const cleanText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
  .map((text) => text.replaceAll('<', '‹').trim())
  .filter((text) => text !== '');

describe('sharegpt round trip of generated transcripts (property)', () => {
  it('decodes what it encodes: same roles and parts, calls paired with their results', () => {
    fc.assert(
      fc.property(transcriptArb({ system: true, groupResults: true, text: cleanText }), (transcript) => {
        const entry = encodeShareGpt(transcript);
        const back = decodeShareGpt(JSON.parse(JSON.stringify(entry)));
        expect(back.issues).toEqual([]);
        expect(back.value.messages.map(said)).toEqual(transcript.messages.map(said));
        expect(verifyTranscript(back.value)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('merges consecutive tool messages into one tool turn and still pairs every result', () => {
    fc.assert(
      fc.property(transcriptArb({ groupResults: false, text: cleanText }), (transcript) => {
        const back = decodeShareGpt(encodeShareGpt(transcript)).value;
        const results = (messages: readonly Message[]) =>
          messages.flatMap((message) =>
            message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.content] : [])),
          );
        expect(results(back.messages)).toEqual(results(transcript.messages));
        expect(verifyTranscript(back).filter((violation) => violation.code !== 'empty-message')).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});

const fragment = fc.constantFrom(
  '<think>',
  '</think>',
  '<tool_call>',
  '</tool_call>',
  '<tool_response>',
  '</tool_response>',
  '\n',
  ' ',
  'text',
  '{"name": "f", "arguments": {"a": 1}}',
  '{"name":"g","arguments":"{\\"x\\": 2}"}',
  '{"name": "h"}',
  '[{"name": "f", "arguments": {}}]',
  '{"tool_call_id": "1", "name": "f", "content": {"k": [1, 2]}}',
  '{"content": "c"}',
  '{"content": 42, "extra": true}',
  '{"name": "f", "arguments": {}, "id": "x"}',
);
const valueArb = fc.array(fragment, { maxLength: 10 }).map((pieces) => pieces.join(''));
const turnArb = fc.oneof(
  fc.record(
    {
      from: fc.constantFrom(
        'system',
        'human',
        'gpt',
        'tool',
        'function_call',
        'observation',
        'user',
        'assistant',
        'bing',
      ),
      value: valueArb,
      weight: fc.integer(),
    },
    { requiredKeys: ['from', 'value'] },
  ),
  fc.jsonValue(),
);
const entryArb = fc.oneof(
  fc.record(
    { conversations: fc.array(turnArb, { maxLength: 8 }), tools: fc.string(), system: fc.string() },
    { requiredKeys: ['conversations'] },
  ),
  fc.jsonValue(),
);

describe('sharegpt decode of arbitrary entries (property)', () => {
  it('never throws and encodes back to the same entry, with and without origins', () => {
    fc.assert(
      fc.property(entryArb, (entry) => {
        const { value } = decodeShareGpt(entry);
        sharegptCodec.detect(entry);
        if (value.meta?.origin !== undefined) expect(encodeShareGpt(value)).toBe(entry);
        expect(encodeShareGpt(stripOrigins(value))).toEqual(entry);
      }),
      { numRuns: 600 },
    );
  });

  it('decodes the same parts from a re-encoded entry', () => {
    fc.assert(
      fc.property(entryArb, (entry) => {
        const { value } = decodeShareGpt(entry);
        const back = decodeShareGpt(encodeShareGpt(stripOrigins(value))).value;
        expect(back.messages.map(said)).toEqual(value.messages.map(said));
      }),
      { numRuns: 300 },
    );
  });
});
