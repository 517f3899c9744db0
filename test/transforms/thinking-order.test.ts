import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../support/property-seed.js';
import { getCodec } from '../../src/codecs/registry.js';
import { compactOrSmallest } from '../../src/engines/best-effort.js';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import { createRuleEngine } from '../../src/engines/rules/create-rule-engine.js';
import type { Message } from '../../src/model/message.js';
import type { ReasoningPart } from '../../src/model/part.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { buildCodingSession } from '../../src/testing.js';
import { placeCheckpoint } from '../../src/transforms/place-checkpoint.js';
import { call, result, text, user } from './support.js';

const thinking = (said: string): ReasoningPart => ({
  type: 'reasoning',
  text: said,
  signature: `sig-${said.length}`,
});

/** Every assistant message of a session starts with a signed thinking block, as with extended thinking. */
function withThinking(messages: readonly Message[]): Message[] {
  return messages.map((message, index) =>
    message.role === 'assistant'
      ? { ...message, parts: [thinking(`Considering step ${index}.`), ...message.parts] }
      : message,
  );
}

describe('thinking comes first in an assistant message', () => {
  it('is a provider rule verifyTranscript checks', () => {
    const wrong: Message = {
      role: 'assistant',
      parts: [text('Checking.'), thinking('hmm'), call('c1', 'Read')],
    };
    const violations = verifyTranscript(
      { messages: [user('go'), wrong, { role: 'tool', parts: [result('c1', 'ok')] }] },
      { provider: 'anthropic' },
    );
    expect(violations.map((violation) => violation.code)).toContain('reasoning-not-first');
  });

  it('puts a merged checkpoint after the thinking an assistant message starts with', () => {
    const head: Message[] = [user('task')];
    const tail: Message[] = [
      { role: 'assistant', parts: [thinking('plan'), text('Next.'), call('c2', 'Bash')] },
      { role: 'tool', parts: [result('c2', 'ok')] },
    ];
    const placed = placeCheckpoint(head, 'CHECKPOINT', tail);
    expect(placed.placement).toBe('merged');
    const carrier = placed.messages[placed.index] as Message;
    expect(carrier.parts.map((part) => part.type)).toEqual(['reasoning', 'text', 'text', 'tool-call']);
    expect(verifyTranscript({ messages: placed.messages }, { provider: 'anthropic' })).toEqual([]);
  });

  it('holds after compaction with either engine, through the Anthropic wire, at any window', async () => {
    const anthropic = getCodec('anthropic');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 6, max: 40 }),
        fc.integer({ min: 2_000, max: 12_000 }),
        fc.constantFrom('compressor', 'rules'),
        async (steps, contextLength, name) => {
          const session = buildCodingSession({ steps });
          const input = anthropic.decode(
            anthropic.encode({ ...session, messages: withThinking(session.messages) }),
          ).value;
          const engine =
            name === 'rules' ? createRuleEngine({ contextLength }) : createCompressor({ contextLength });
          const { result: compacted } = await compactOrSmallest(engine, input, { force: true });
          const output = anthropic.decode(anthropic.encode(compacted.transcript)).value;
          expect(verifyTranscript(output, { provider: 'anthropic' })).toEqual([]);
        },
      ),
      { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 40) },
    );
  });
});
