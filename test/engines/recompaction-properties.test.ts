import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../support/property-seed.js';
import { getCodec } from '../../src/codecs/registry.js';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import { createRuleEngine } from '../../src/engines/rules/create-rule-engine.js';
import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import {
  assistantMessage,
  buildCodingSession,
  toolCall,
  toolResult,
  userMessage,
} from '../../src/testing.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { checkpointOf } from '../../src/transforms/checkpoint-text.js';
import { compactOrBest, latestRequest } from './support.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 40);
const FORMATS = ['openai', 'sharegpt', 'anthropic', 'ai-sdk', 'claude-code', 'openai-responses'] as const;
const PASSES = 10;
const counter = createRoughCounter();

/** The transcript as the agent's harness would hand it back next time: written in its format and read again. */
function throughWire(transcript: Transcript, format: (typeof FORMATS)[number]): Transcript {
  const codec = getCodec(format);
  return codec.decode(codec.encode(transcript)).value;
}

/** A few more tool steps, as the agent goes on working after a compaction. */
function moreSteps(pass: number, size: number): Message[] {
  const call = toolCall('Bash', { command: `npm test -- part-${pass}` }, `call_pass_${pass}`);
  return [
    assistantMessage(`Running part ${pass}.`, call),
    toolResult(call, `part ${pass} output\n${'line of test output\n'.repeat(size)}`),
  ];
}

const sessions = fc.record({
  steps: fc.integer({ min: 4, max: 40 }),
  request: fc.string({ minLength: 1, maxLength: 60 }).map((text) => `Please ${text}`),
  format: fc.constantFrom(...FORMATS),
  contextLength: fc.integer({ min: 3_000, max: 12_000 }),
  growth: fc.integer({ min: 0, max: 60 }),
});

describe('compaction, pass after pass', () => {
  it(`keeps the request verbatim and separate, one checkpoint each side of it, valid output and the window, over ${PASSES} passes in every format`, async () => {
    await fc.assert(
      fc.asyncProperty(sessions, async ({ steps, request, format, contextLength, growth }) => {
        const session = buildCodingSession({ steps, finalRequest: request });
        let transcript = throughWire(session, format);
        const wanted = latestRequest(transcript.messages)?.text;
        const engine = createCompressor({ contextLength });
        for (let pass = 0; pass < PASSES; pass++) {
          const { transcript: output, overflow } = await compactOrBest(() =>
            engine.compress(transcript, { force: true }),
          );
          transcript = throughWire(output, format);
          expect(latestRequest(transcript.messages)?.text, `pass ${pass} (${format})`).toBe(wanted);
          // At most one checkpoint up to the request (older history) and one after it (progress on it).
          const at = latestRequest(transcript.messages)?.index ?? transcript.messages.length;
          const checkpoints = transcript.messages.filter((message) => checkpointOf(message) !== undefined);
          const upTo = transcript.messages
            .slice(0, at + 1)
            .filter((message) => checkpointOf(message) !== undefined);
          expect(upTo.length, `pass ${pass}`).toBeLessThanOrEqual(1);
          expect(checkpoints.length - upTo.length, `pass ${pass}`).toBeLessThanOrEqual(1);
          for (const checkpoint of checkpoints) {
            expect(checkpointOf(checkpoint)?.body).not.toMatch(/## Current Request\n- none/);
          }
          const provider = format === 'anthropic' || format === 'claude-code' ? 'anthropic' : 'openai';
          const pairs = verifyTranscript(transcript, { provider }).filter((violation) =>
            /result|call|reasoning/.test(violation.code),
          );
          expect(pairs, `pass ${pass}`).toEqual([]);
          if (!overflow) expect(counter.countTranscript(output)).toBeLessThanOrEqual(contextLength);
          // The agent goes on: new steps after the request, never a new request.
          transcript = { ...transcript, messages: [...transcript.messages, ...moreSteps(pass, growth)] };
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps a request that the wire merged into the checkpoint string through ten OpenAI round trips', async () => {
    const session = buildCodingSession({ steps: 30, finalRequest: 'Keep going with the migration.' });
    const engine = createCompressor({ contextLength: 4_000 });
    let transcript: Transcript = session;
    for (let pass = 0; pass < PASSES; pass++) {
      const { transcript: output } = await compactOrBest(() => engine.compress(transcript, { force: true }));
      transcript = throughWire(output, 'openai');
      expect(latestRequest(transcript.messages)?.text).toBe('Keep going with the migration.');
      transcript = { ...transcript, messages: [...transcript.messages, ...moreSteps(pass, 40)] };
    }
  });
});

describe('the window holds', () => {
  it('for any transcript and any context length, the output fits or BUDGET_UNREACHABLE is raised', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 4_000 }),
        fc.integer({ min: 200, max: 20_000 }),
        fc.constantFrom('compressor', 'rules'),
        async (steps, requestChars, contextLength, engineName) => {
          const session = buildCodingSession({ steps, finalRequest: `Do it: ${'x'.repeat(requestChars)}` });
          const engine =
            engineName === 'rules'
              ? createRuleEngine({ contextLength })
              : createCompressor({ contextLength });
          const { transcript, overflow } = await compactOrBest(() =>
            engine.compress(session, { force: true }),
          );
          if (!overflow) expect(counter.countTranscript(transcript)).toBeLessThanOrEqual(contextLength);
          // Raising is only allowed when the compressor truly cannot fold enough.
          if (overflow && engineName === 'compressor') {
            const request = latestRequest(session.messages);
            const system = session.messages[0] as Message;
            const kept =
              counter.countMessage(system) +
              counter.countMessage(session.messages[request?.index ?? 0] as Message);
            expect(kept + 400).toBeGreaterThan(contextLength * 0.5);
          }
          expect(latestRequest(transcript.messages)?.text).toBe(latestRequest(session.messages)?.text);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('a paused engine still compacts a prompt past the window', async () => {
    const engine = createCompressor({ contextLength: 3_000 });
    const tiny = { messages: [userMessage('hi'), assistantMessage('hello')] };
    await engine.compress(tiny, { force: true });
    await engine.compress(tiny, { force: true });
    expect(engine.status().blocked).toMatch(/paused/);
    const big = buildCodingSession({ steps: 60 });
    expect(counter.countTranscript(big)).toBeGreaterThan(3_000);
    const result = await engine.compress(big);
    expect(result.report.madeProgress).toBe(true);
    expect(result.report.tokensAfter.rough).toBeLessThanOrEqual(3_000);
    expect(result.report.notes.join(' ')).toMatch(/past the window/);
  });
});
