import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import type { Message } from '../../src/model/message.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { checkpointOf, parseCheckpoint } from '../../src/transforms/checkpoint-text.js';
import { transcriptArb } from '../transforms/arbitraries.js';
import { deepFreeze } from '../transforms/support.js';
import { checkpointIndices, latestRequest } from './support.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 120);

const violationCodes = (messages: readonly Message[], provider: 'openai' | 'anthropic') =>
  new Set(verifyTranscript({ messages }, { provider }).map((violation) => violation.code));

describe('compressor engine properties', () => {
  it('never mutates its input, keeps outputs valid, the system prompt and the latest request', async () => {
    await fc.assert(
      fc.asyncProperty(
        transcriptArb,
        fc.integer({ min: 2_000, max: 40_000 }),
        async (messages, contextLength) => {
          const input = deepFreeze({ messages });
          const snapshot = JSON.stringify(input);
          const { transcript, report } = await createCompressor({ contextLength }).compress(input, {
            force: true,
          });
          expect(JSON.stringify(input)).toBe(snapshot);
          for (const provider of ['openai', 'anthropic'] as const) {
            const before = violationCodes(messages, provider);
            for (const code of violationCodes(transcript.messages, provider)) {
              // Alternation of the generated input itself (consecutive user/assistant messages) may remain.
              if (!before.has(code))
                expect(['alternation', 'first-not-user', 'system-not-first', 'empty-message']).toContain(
                  code,
                );
            }
            const pairs = [...violationCodes(transcript.messages, provider)].filter(
              (code) => code.includes('result') || code.includes('call'),
            );
            expect(pairs).toEqual([]);
          }
          for (const system of messages.filter(
            (message) => message.role === 'system' && messages.indexOf(message) === 0,
          )) {
            expect(transcript.messages[0]).toBe(system);
          }
          const latest = latestRequest(messages);
          if (latest !== undefined) {
            const after = latestRequest(transcript.messages);
            expect(after?.text).toBe(latest.text);
            // The checkpoint this pass wrote is the one message carrying a checkpoint that the input did not have.
            const written = checkpointIndices(transcript.messages).filter(
              (index) => !messages.includes(transcript.messages[index] as Message),
            );
            const requestKeptAsIs = transcript.messages.includes(messages[latest.index] as Message);
            for (const index of written)
              if (!requestKeptAsIs) expect(after?.index ?? -1).toBeGreaterThanOrEqual(index);
          }
          expect(report.tokensAfter.rough).toBeLessThanOrEqual(report.tokensBefore.rough);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('is a no-op below the threshold', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArb, async (messages) => {
        const input = { messages };
        const result = await createCompressor({ contextLength: 10_000_000 }).compress(input);
        expect(result.transcript).toBe(input);
        expect(result.report.madeProgress).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it('never nests a checkpoint inside a checkpoint across repeated compactions', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArb, transcriptArb, async (first, more) => {
        const engine = createCompressor({ contextLength: 4_000 });
        const once = await engine.compress({ messages: first }, { force: true });
        const grown = {
          messages: [...once.transcript.messages, ...more.filter((message) => message.role !== 'system')],
        };
        const twice = await engine.compress(grown, { force: true });
        for (const message of twice.transcript.messages) {
          const checkpoint = checkpointOf(message);
          if (checkpoint !== undefined) expect(parseCheckpoint(checkpoint.body)).toBeUndefined();
        }
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});
