import { afterEach, describe, expect, it } from 'vitest';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { createModelSummarizer } from '../../src/summarizer/model/model-summarizer.js';
import { buildCodingSession } from '../../src/testing/transcript-builders.js';
import {
  type LoopbackProvider,
  type LoopbackReply,
  loopbackReplies,
  startLoopbackProvider,
} from '../../src/testing.js';
import { realisticCheckpoint } from '../support/checkpoints.js';
import { checkpointIndices } from './support.js';

let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function engineAgainst(script: LoopbackReply[], options: { summary?: LoopbackReply[] } = {}) {
  server = await startLoopbackProvider({ script });
  const model = createModelSummarizer({
    model: 'openai-compatible:main-model',
    baseUrl: `${server.url}/v1`,
    maxRetries: 1,
    retryDelayMs: 1,
    sleep: async () => {},
    timeoutMs: 2_000,
  });
  let clock = 1_000_000;
  const engine = createCompressor({ contextLength: 16_000, model, now: () => clock });
  return { engine, advance: (ms: number) => (clock += ms), options };
}

const transcript = () => buildCodingSession({ steps: 30 });

describe('compressor engine against a real HTTP provider', () => {
  it('writes the model checkpoint and reports its source', async () => {
    const { engine } = await engineAgainst([
      loopbackReplies.text(realisticCheckpoint('keep going', 'ship it')),
    ]);
    const result = await engine.compress(transcript(), { force: true });
    expect(result.report.errors).toEqual([]);
    expect(result.report.summary.source).toBe('model');
    expect(result.report.summary.calls).toBeGreaterThanOrEqual(1);
    expect(verifyTranscript(result.transcript, { provider: 'anthropic' })).toEqual([]);
    expect(checkpointIndices(result.transcript.messages)).toHaveLength(1);
  });

  it('aborts and keeps the transcript when the key is refused (401)', async () => {
    const { engine } = await engineAgainst([loopbackReplies.auth(), loopbackReplies.auth()]);
    const input = transcript();
    const result = await engine.compress(input, { force: true });
    expect(result.report.aborted).toBe(true);
    expect(result.transcript).toBe(input);
  });

  it('aborts on an exhausted quota', async () => {
    const { engine } = await engineAgainst([loopbackReplies.quota(), loopbackReplies.quota()]);
    const result = await engine.compress(transcript(), { force: true });
    expect(result.report.aborted).toBe(true);
  });

  it.each([
    ['server error', () => loopbackReplies.serverError()],
    ['malformed body', (): LoopbackReply => ({ kind: 'malformed' })],
    ['cut stream', (): LoopbackReply => ({ kind: 'cut' })],
    ['empty answer', () => loopbackReplies.empty()],
  ])('falls back to the extractive checkpoint after a %s', async (_name, reply) => {
    const { engine } = await engineAgainst([reply(), reply(), reply()]);
    const result = await engine.compress(transcript(), { force: true });
    expect(result.report.aborted).toBe(false);
    expect(result.report.summary.source).toBe('extractive');
    expect(result.report.errors.length).toBeGreaterThan(0);
    expect(verifyTranscript(result.transcript, { provider: 'openai' })).toEqual([]);
  });

  it('does not take a reply that is no checkpoint for one: retries, falls back to extractive, says so', async () => {
    const { engine } = await engineAgainst([
      loopbackReplies.text('ok from fake upstream'),
      loopbackReplies.text('ok from fake upstream'),
      loopbackReplies.text('ok from fake upstream'),
    ]);
    const result = await engine.compress(transcript(), { force: true });
    expect(result.report.summary.source).toBe('extractive');
    expect(result.report.errors.join('\n')).toMatch(/not a checkpoint/);
    const texts = result.transcript.messages.flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])),
    );
    expect(texts.join('\n')).not.toContain('ok from fake upstream');
    expect(texts.join('\n')).toContain('## Current Request');
  });

  it('skips the model during its cooldown and calls it again afterwards', async () => {
    const { engine, advance } = await engineAgainst([
      loopbackReplies.serverError(),
      loopbackReplies.serverError(),
      loopbackReplies.text(realisticCheckpoint('back')),
    ]);
    await engine.compress(transcript(), { force: false, currentTokens: 20_000 });
    const requestsAfterFailure = server?.requests.length ?? 0;
    await engine.compress(transcript(), { currentTokens: 20_000 });
    expect(server?.requests.length).toBe(requestsAfterFailure);
    advance(61_000);
    const third = await engine.compress(transcript(), { currentTokens: 20_000 });
    expect(third.report.summary.source).toBe('model');
  });

  it('never sends a secret from the transcript to the provider', async () => {
    const { engine } = await engineAgainst([loopbackReplies.text(realisticCheckpoint('ok'))]);
    const secret = ['sk', 'proj', 'Q8fZ2kLmN4pR7sT1vW3xY5zA6bC9dE0fG2hJ4k'].join('-');
    const { messages } = buildCodingSession({ steps: 30 });
    const poisoned = {
      messages: [
        ...messages.slice(0, 3),
        { role: 'user' as const, parts: [{ type: 'text' as const, text: `use OPENAI_API_KEY=${secret}` }] },
        ...messages.slice(3),
      ],
    };
    await engine.compress(poisoned, { force: true });
    expect(JSON.stringify(server?.requests)).not.toContain(secret);
  });
});
