import { afterEach, describe, expect, it } from 'vitest';
import { CondenseError } from '../../src/errors/condense-error.js';
import {
  createExtractiveSummarizer,
  createSummarizerChain,
  SUMMARY_UNAVAILABLE_TEXT,
  SummarizerError,
  type SummarizerFailure,
} from '../../src/summarizer/index.js';
import {
  buildCodingSession,
  checkpointAnswer,
  createMockSummarizer,
  type LoopbackProvider,
  type LoopbackReply,
  loopbackReplies as reply,
  startLoopbackProvider,
} from '../../src/testing.js';
import { FAKE_TOKEN, loopbackSummarizer, request } from './helpers.js';

const servers: LoopbackProvider[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(script: readonly LoopbackReply[]): Promise<LoopbackProvider> {
  const server = await startLoopbackProvider({ script });
  servers.push(server);
  return server;
}

const session = buildCodingSession({ steps: 6 }).messages;
const extractive = createExtractiveSummarizer();
const SUMMARY = checkpointAnswer({ currentRequest: 'from the summary model' });
const MAIN = checkpointAnswer({ currentRequest: 'from the main model' });

function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

function failing(failure: SummarizerFailure, name = 'failing'): ReturnType<typeof createMockSummarizer> {
  return createMockSummarizer({
    name,
    replies: [new SummarizerError({ failure, message: `${name} ${failure}`, retryable: false, calls: 1 })],
  });
}

describe('summarizer chain', () => {
  it('uses the extractive builder when no model is configured', async () => {
    const time = clock();
    const chain = createSummarizerChain({ extractive, now: time.now });
    const result = await chain.summarize(request(session));
    expect(result.tier).toBe('extractive');
    expect(result.summary.source).toBe('extractive');
    expect(result.fellBack).toBe(false);
    expect(result.calls).toBe(0);
  });

  it('prefers the summary model', async () => {
    const summaryServer = await start([reply.text(SUMMARY)]);
    const mainServer = await start([reply.text(MAIN)]);
    const chain = createSummarizerChain({
      summary: loopbackSummarizer(summaryServer).summarizer,
      main: loopbackSummarizer(mainServer).summarizer,
      extractive,
      now: clock().now,
    });
    const result = await chain.summarize(request(session));
    expect(result).toMatchObject({ tier: 'summary', calls: 1, fellBack: false, errors: [] });
    expect(result.summary.text).toBe(SUMMARY);
    expect(mainServer.requests).toHaveLength(0);
  });

  it('falls back to the main model once when the summary model refuses the key', async () => {
    const summaryServer = await start([reply.auth()]);
    const mainServer = await start([reply.text(MAIN)]);
    const chain = createSummarizerChain({
      summary: loopbackSummarizer(summaryServer).summarizer,
      main: loopbackSummarizer(mainServer, { provider: 'anthropic' }).summarizer,
      extractive,
      now: clock().now,
    });
    const result = await chain.summarize(request(session));
    expect(result.tier).toBe('main');
    expect(result.summary.text).toBe(MAIN);
    expect(result.sticky).toBeUndefined();
    expect(result.calls).toBe(2);
    expect(result.attempts.map((attempt) => [attempt.tier, attempt.outcome, attempt.failure])).toEqual([
      ['summary', 'failed', 'auth'],
      ['main', 'ok', undefined],
    ]);
    expect(result.errors[0]).toMatch(/summary model .* failed \(auth\)/);
  });

  it('surfaces auth and quota failures as sticky, with the extractive text ready', async () => {
    const mainServer = await start([reply.quota()]);
    const chain = createSummarizerChain({
      main: loopbackSummarizer(mainServer).summarizer,
      extractive,
      now: clock().now,
    });
    const result = await chain.summarize(request(session));
    expect(result.sticky).toMatchObject({ failure: 'quota', tier: 'main' });
    expect(result.tier).toBe('extractive');
    expect(result.summary.source).toBe('extractive');
    expect(chain.status().sticky?.failure).toBe('quota');
  });

  it('retries transient failures, then falls back to the extractive builder', async () => {
    const mainServer = await start([reply.serverError(), reply.serverError(), reply.serverError()]);
    const chain = createSummarizerChain({
      main: loopbackSummarizer(mainServer).summarizer,
      extractive,
      now: clock().now,
    });
    const result = await chain.summarize(request(session));
    expect(result).toMatchObject({ tier: 'extractive', fellBack: true, calls: 3 });
    expect(result.sticky).toBeUndefined();
    expect(mainServer.requests).toHaveLength(3);
  });

  it('skips a model during its cooldown and tries it again afterwards', async () => {
    const mainServer = await start([reply.malformed(), reply.text(MAIN)]);
    const time = clock();
    const chain = createSummarizerChain({
      main: loopbackSummarizer(mainServer, { maxRetries: 0 }).summarizer,
      extractive,
      now: time.now,
    });
    expect((await chain.summarize(request(session))).tier).toBe('extractive');
    expect(chain.status().main?.coolingUntil).toBe(time.now() + 30_000);
    time.advance(29_000);
    const skipped = await chain.summarize(request(session));
    expect(skipped.tier).toBe('extractive');
    expect(skipped.attempts[0]).toMatchObject({ tier: 'main', outcome: 'skipped' });
    expect(mainServer.requests).toHaveLength(1);
    time.advance(1_000);
    const recovered = await chain.summarize(request(session));
    expect(recovered.tier).toBe('main');
    expect(chain.status().main?.coolingUntil).toBeUndefined();
  });

  it('uses the main model directly while the summary model cools down', async () => {
    const time = clock();
    const summary = failing('rate-limit', 'summary');
    const main = createMockSummarizer({ name: 'main', replies: [MAIN] });
    const chain = createSummarizerChain({ summary, main, extractive, now: time.now });
    await chain.summarize(request(session));
    time.advance(10_000);
    const result = await chain.summarize(request(session));
    expect(result.tier).toBe('main');
    expect(summary.requests).toHaveLength(1);
    expect(main.requests).toHaveLength(2);
  });

  it('escalates timeout cooldowns 60 s, 300 s, 900 s and resets them on success', async () => {
    const time = clock();
    const timeouts = new SummarizerError({ failure: 'timeout', message: 'slow', retryable: true });
    const main = createMockSummarizer({ replies: [timeouts, timeouts, timeouts, timeouts, MAIN] });
    const chain = createSummarizerChain({ main, extractive, now: time.now });
    const cooldowns: number[] = [];
    for (let round = 0; round < 4; round++) {
      await chain.summarize(request(session));
      const until = chain.status().main?.coolingUntil ?? 0;
      cooldowns.push(until - time.now());
      time.advance(until - time.now());
    }
    expect(cooldowns).toEqual([60_000, 300_000, 900_000, 900_000]);
    expect((await chain.summarize(request(session))).tier).toBe('main');
    expect(chain.status().main?.timeoutStreak).toBe(0);
  });

  it.each([
    ['network', 30_000],
    ['invalid-response', 30_000],
    ['rate-limit', 60_000],
    ['model-not-found', 60_000],
    ['auth', 60_000],
  ] as const)('cools a model down after %s for %i ms', async (failure, ms) => {
    const time = clock();
    const chain = createSummarizerChain({ main: failing(failure), extractive, now: time.now });
    await chain.summarize(request(session));
    expect((chain.status().main?.coolingUntil ?? 0) - time.now()).toBe(ms);
  });

  it('honours custom cooldowns', async () => {
    const time = clock();
    const chain = createSummarizerChain({
      main: failing('other'),
      extractive,
      now: time.now,
      cooldowns: { defaultMs: 5_000 },
    });
    await chain.summarize(request(session));
    expect((chain.status().main?.coolingUntil ?? 0) - time.now()).toBe(5_000);
  });

  it('keeps a sticky failure through the cooldown until a model succeeds', async () => {
    const time = clock();
    const main = createMockSummarizer({
      replies: [new SummarizerError({ failure: 'auth', message: 'bad key', retryable: false }), MAIN],
    });
    const chain = createSummarizerChain({ main, extractive, now: time.now });
    expect((await chain.summarize(request(session))).sticky?.failure).toBe('auth');
    time.advance(1_000);
    const during = await chain.summarize(request(session));
    expect(during.sticky?.failure).toBe('auth');
    expect(main.requests).toHaveLength(1);
    time.advance(60_000);
    const after = await chain.summarize(request(session));
    expect(after.tier).toBe('main');
    expect(after.sticky).toBeUndefined();
  });

  it('reset() clears cooldowns and the sticky failure', async () => {
    const time = clock();
    const main = createMockSummarizer({
      replies: [new SummarizerError({ failure: 'quota', message: 'no credit', retryable: false }), MAIN],
    });
    const chain = createSummarizerChain({ main, extractive, now: time.now });
    await chain.summarize(request(session));
    chain.reset();
    expect(chain.status()).toEqual({ main: { summarizer: 'mock', timeoutStreak: 0 } });
    expect((await chain.summarize(request(session))).tier).toBe('main');
  });

  it('lets a cancellation through instead of falling back', async () => {
    const aborted = new CondenseError({ code: 'ABORTED', message: 'cancelled' });
    const chain = createSummarizerChain({
      main: createMockSummarizer({ replies: [aborted] }),
      extractive,
      now: clock().now,
    });
    await expect(chain.summarize(request(session))).rejects.toBe(aborted);
  });

  it('treats a foreign error as a failure of class other, and redacts its message', async () => {
    const chain = createSummarizerChain({
      main: createMockSummarizer({ replies: [new Error(`boom with ${FAKE_TOKEN}`)] }),
      extractive,
      now: clock().now,
    });
    const result = await chain.summarize(request(session));
    expect(result.attempts[0]?.failure).toBe('other');
    expect(result.errors.join('\n')).toContain('boom');
    expect(result.errors.join('\n')).not.toContain(FAKE_TOKEN);
  });

  it('tries one model once when it is configured as both summary and main', async () => {
    const model = failing('other');
    const chain = createSummarizerChain({ summary: model, main: model, extractive, now: clock().now });
    const result = await chain.summarize(request(session));
    expect(model.requests).toHaveLength(1);
    expect(result.attempts.map((attempt) => attempt.tier)).toEqual(['main', 'extractive']);
  });

  it('exports a static marker for the last resort', () => {
    expect(SUMMARY_UNAVAILABLE_TEXT).toMatch(/no record of them could be written/);
  });
});
