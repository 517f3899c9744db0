import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicCodec } from '../../../src/codecs/anthropic-messages/index.js';
import type { Message } from '../../../src/model/message.js';
import { stripOrigins } from '../../../src/model/origins.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { transcriptArbitrary } from '../openai-chat/transcript-arbitrary.js';
import { withoutMeta } from '../openai-chat/without-meta.js';
import { anthropicWireProblems } from './wire-oracle.js';

/**
 * The turns an Anthropic request holds: neighbouring messages of the same wire role (tool results travel in
 * user messages) form one turn, tool results first. This is the documented structural change of the encoder;
 * the parts themselves must come back unchanged.
 */
function turns(messages: readonly Message[]): { role: string; parts: unknown[] }[] {
  const out: { role: string; results: unknown[]; rest: unknown[] }[] = [];
  for (const message of messages) {
    const role = message.role === 'tool' ? 'user' : message.role;
    const last = out[out.length - 1];
    const target =
      last !== undefined && last.role === role && role !== 'system' ? last : { role, results: [], rest: [] };
    if (target !== last) out.push(target);
    for (const part of withoutMeta(message.parts)) {
      if ((part as { type: string }).type === 'tool-result') target.results.push(part);
      else target.rest.push(part);
    }
  }
  return out.map((turn) => ({ role: turn.role, parts: [...turn.results, ...turn.rest] }));
}

const block = fc.oneof(
  fc.record(
    { type: fc.constant('text'), text: fc.string(), cache_control: fc.constant({ type: 'ephemeral' }) },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record({
    type: fc.constant('image'),
    source: fc.oneof(
      fc.record(
        { type: fc.constant('base64'), media_type: fc.constant('image/png'), data: fc.base64String() },
        { requiredKeys: ['type', 'data'] },
      ),
      fc.record({ type: fc.constant('url'), url: fc.webUrl() }),
    ),
  }),
  fc.record(
    {
      type: fc.constant('tool_use'),
      id: fc.string(),
      name: fc.string(),
      input: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: ['type', 'id', 'name'] },
  ),
  fc.record(
    {
      type: fc.constant('tool_result'),
      tool_use_id: fc.string(),
      content: fc.oneof(
        fc.string(),
        fc.array(
          fc.oneof(
            fc.record({ type: fc.constant('text'), text: fc.string() }),
            fc.jsonValue({ maxDepth: 1 }),
          ),
          { maxLength: 3 },
        ),
      ),
      is_error: fc.boolean(),
    },
    { requiredKeys: ['type', 'tool_use_id'] },
  ),
  fc.record(
    { type: fc.constant('thinking'), thinking: fc.string(), signature: fc.string() },
    { requiredKeys: ['type', 'thinking'] },
  ),
  fc.record({ type: fc.constant('redacted_thinking'), data: fc.string() }),
  fc.jsonValue({ maxDepth: 1 }),
);

const wireMessage = fc.record(
  {
    role: fc.constantFrom('user', 'assistant', 'system'),
    content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
    id: fc.string(),
  },
  { requiredKeys: ['role'] },
);

/** A value as a file holds it (JSON text cannot tell -0 from 0). */
function asWritten(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe('anthropic codec properties', () => {
  it('gives back the same parts, turn by turn, for generated transcripts and always sends a valid request', () => {
    fc.assert(
      fc.property(
        transcriptArbitrary({ signedReasoning: true, errorFlags: true, groupedResults: true }),
        (transcript) => {
          const wire = anthropicCodec.encode(transcript);
          expect(anthropicWireProblems(wire)).toEqual([]);
          const back = anthropicCodec.decode(wire);
          expect(back.issues).toEqual([]);
          expect(turns(back.value.messages)).toEqual(turns(transcript.messages));
          expect(verifyTranscript(back.value, { provider: 'anthropic' })).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sends unsigned reasoning from other providers as <think> text, which reads back as reasoning', () => {
    fc.assert(
      fc.property(
        transcriptArbitrary({ signedReasoning: false, errorFlags: false, groupedResults: false }),
        (transcript) => {
          const wire = anthropicCodec.encode(transcript);
          expect(anthropicWireProblems(wire)).toEqual([]);
          expect(turns(anthropicCodec.decode(wire).value.messages)).toEqual(turns(transcript.messages));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('never throws on arbitrary JSON and writes it back unchanged, with or without origins', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const { value: transcript } = anthropicCodec.decode(value);
        expect(anthropicCodec.encode(transcript)).toBe(value);
        expect(asWritten(anthropicCodec.encode(stripOrigins(transcript)))).toEqual(asWritten(value));
      }),
      { numRuns: 500 },
    );
  });

  it('re-encodes arbitrary requests exactly from parts and meta alone', () => {
    fc.assert(
      fc.property(
        fc.array(wireMessage, { maxLength: 6 }),
        fc.option(fc.oneof(fc.string(), fc.array(block, { maxLength: 2 })), { nil: undefined }),
        (messages, system) => {
          const wire = { model: 'm', ...(system === undefined ? {} : { system }), messages };
          const { value } = anthropicCodec.decode(wire);
          expect(asWritten(anthropicCodec.encode(stripOrigins(value)))).toEqual(asWritten(wire));
        },
      ),
      { numRuns: 500 },
    );
  });
});
