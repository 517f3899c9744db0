import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { messageText } from '../../src/model/message-helpers.js';
import { createSummarizerChain } from '../../src/summarizer/chain/summarizer-chain.js';
import { SUMMARY_UNAVAILABLE_TEXT } from '../../src/summarizer/chain/summary-unavailable.js';
import { createExtractiveSummarizer } from '../../src/summarizer/extractive/extractive-summarizer.js';
import { createModelSummarizer } from '../../src/summarizer/model/model-summarizer.js';
import type { Summarizer } from '../../src/summarizer/summarizer.js';
import {
  type LoopbackProvider,
  type LoopbackScript,
  loopbackReplies as reply,
  startLoopbackProvider,
} from '../../src/testing.js';
import { compressTrajectory, HERMES_SUMMARY_PREFIX } from '../../src/trajectory/index.js';
import { realisticCheckpoint } from '../support/checkpoints.js';
import { agentRun, charCounter } from './helpers.js';

/** A GitHub-token-shaped fake secret, assembled at run time so no token literal sits in the repository. */
const FAKE_TOKEN = ['gh', 'p_', 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8'].join('');

let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelChain(script: LoopbackScript, maxRetries = 2) {
  server = await startLoopbackProvider({ script });
  const model = createModelSummarizer({
    model: 'openai:gpt-4o-mini',
    apiKey: 'test-key',
    baseUrl: `${server.url}/v1`,
    maxRetries,
    sleep: async () => undefined,
  });
  return {
    chain: createSummarizerChain({ summary: model, extractive: createExtractiveSummarizer(), now: () => 0 }),
    server,
  };
}

function promptOf(body: unknown): string {
  return JSON.stringify(body);
}

const run = agentRun({
  steps: 12,
  output: 500,
  interjections: { 6: `use the token ${FAKE_TOKEN} for the registry` },
});

const STEPS_SUMMARY = realisticCheckpoint('The agent ran shell steps 0-5 on /srv/app.');

describe('compressTrajectory with a model (loopback provider)', () => {
  it('summarizes with the model, counting one API call', async () => {
    const { chain, server: loopback } = await modelChain([reply.text(STEPS_SUMMARY)]);
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 200,
      summarizer: chain,
    });
    expect(result.metrics).toMatchObject({
      summarySource: 'model',
      summarizationApiCalls: 1,
      summarizationErrors: 0,
    });
    const summary = result.transcript.messages[4] as Message;
    expect(messageText(summary)).toBe(`${HERMES_SUMMARY_PREFIX} ${STEPS_SUMMARY}`);
    expect(loopback.requests).toHaveLength(1);
  });

  it('keeps a single prefix when the model writes it itself', async () => {
    const { chain } = await modelChain([reply.text(`[CONTEXT SUMMARY]: ${STEPS_SUMMARY}`)]);
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 200,
      summarizer: chain,
    });
    expect(messageText(result.transcript.messages[4] as Message)).toBe(
      `${HERMES_SUMMARY_PREFIX} ${STEPS_SUMMARY}`,
    );
  });

  it('redacts secrets before they reach the model and again in its answer', async () => {
    const { chain, server: loopback } = await modelChain(() =>
      reply.text(realisticCheckpoint(`noted ${FAKE_TOKEN} as the registry token`)),
    );
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 2000,
      summaryTargetTokens: 200,
      summarizer: chain,
    });
    expect(result.metrics.region?.end).toBeGreaterThan(16);
    expect(loopback.requests.length).toBeGreaterThan(0);
    for (const request of loopback.requests) expect(promptOf(request.body)).not.toContain(FAKE_TOKEN);
    const text = messageText(result.transcript.messages[4] as Message);
    expect(text).toContain('noted');
    expect(text).not.toContain(FAKE_TOKEN);
  });

  it('retries, then falls back to the extractive summary, counting every call and error', async () => {
    const { chain, server: loopback } = await modelChain([
      reply.serverError(),
      reply.serverError(),
      reply.serverError(),
    ]);
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 300,
      summarizer: chain,
    });
    expect(loopback.requests).toHaveLength(3);
    expect(result.metrics).toMatchObject({
      summarySource: 'extractive',
      summarizationApiCalls: 3,
      summarizationErrors: 3,
    });
    expect(result.summaryErrors.join('\n')).toMatch(/failed/);
    expect(messageText(result.transcript.messages[4] as Message)).toContain('/srv/app/file');
  });

  it('writes the marked failure summary when the policy asks for it', async () => {
    const { chain } = await modelChain([reply.serverError()], 0);
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 300,
      onSummaryFailure: 'marker',
      summarizer: chain,
    });
    expect(result.metrics).toMatchObject({
      summarySource: 'fallback-marker',
      summarizationApiCalls: 1,
      summarizationErrors: 1,
    });
    expect(messageText(result.transcript.messages[4] as Message)).toBe(
      `${HERMES_SUMMARY_PREFIX} ${SUMMARY_UNAVAILABLE_TEXT}`,
    );
  });

  it('writes the marker when the summarizer itself throws', async () => {
    const broken: Summarizer = {
      name: 'broken',
      kind: 'extractive',
      summarize: () => Promise.reject(new Error(`exploded near ${FAKE_TOKEN}`)),
    };
    const result = await compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 300,
      summarizer: createSummarizerChain({ extractive: broken, now: () => 0 }),
    });
    expect(result.metrics.summarySource).toBe('fallback-marker');
    expect(result.summaryErrors[0]).toContain('exploded');
    expect(result.summaryErrors[0]).not.toContain(FAKE_TOKEN);
  });

  it('rejects with ABORTED when its signal is aborted during the model call', async () => {
    const { chain } = await modelChain([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = compressTrajectory(run, {
      counter: charCounter(),
      targetMaxTokens: 3000,
      summaryTargetTokens: 300,
      summarizer: chain,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
