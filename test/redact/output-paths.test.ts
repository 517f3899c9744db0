import { afterEach, describe, expect, it } from 'vitest';
import { encodeDocument, layoutFor } from '../../src/codecs/registry.js';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import { FORMAT_NAMES } from '../../src/model/format.js';
import type { Message } from '../../src/model/message.js';
import type { Transcript } from '../../src/model/transcript.js';
import { redactTranscript } from '../../src/redact/index.js';
import { createModelSummarizer } from '../../src/summarizer/model/model-summarizer.js';
import {
  buildCodingSession,
  checkpointAnswer,
  type LoopbackProvider,
  type LoopbackReply,
  loopbackReplies,
  startLoopbackProvider,
} from '../../src/testing.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { fakeBody } from './fixtures.js';
import { hiddenParts, PLANTABLE, transcriptWith, transcriptWithToken } from './planting.js';

let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = fakeBody(920, 40);
const PASSWORD = 'Mirror-Pw-77';

/** Every planted example, then the header/URL places, then an ordinary coding session to compact. */
function plantedSession(): Transcript {
  const planted: Message[] = [
    ...PLANTABLE.flatMap((positive) => transcriptWith(positive.text).messages.slice(1)),
    ...transcriptWithToken(TOKEN, PASSWORD).messages,
  ];
  return { messages: [...planted, ...buildCodingSession({ steps: 12 }).messages] };
}

/** No part of any planted secret in `text`. */
function expectClean(text: string, where: string): void {
  for (const positive of PLANTABLE)
    for (const part of hiddenParts(positive))
      expect(text, `${positive.name} in ${where}`).not.toContain(part);
  expect(text, `the header token in ${where}`).not.toContain(TOKEN.slice(6, -4));
  expect(text, `the URL password in ${where}`).not.toContain(PASSWORD);
}

/** A reply that repeats secrets of several shapes, as a model may, in a checkpoint that passes validation. */
const LEAKY_CHECKPOINT = checkpointAnswer({
  currentRequest: 'Call the API again.',
  nextStep: '- retry the request with the same headers, then clone the mirror',
  taskState: '- [in progress] call the deployment API\n- [pending] clone the mirror repository',
  activeState: [
    `- headers: {"Authorization": "Bearer ${TOKEN}"}`,
    `- the mirror is https://deploy:${PASSWORD}@mirror.example.com/repo.git`,
  ].join('\n'),
  references: PLANTABLE.map((positive) => positive.text).join('\n'),
});

async function loopback(script: LoopbackReply[]): Promise<LoopbackProvider> {
  server = await startLoopbackProvider({ script });
  return server;
}

function summarizerFor(provider: LoopbackProvider) {
  return createModelSummarizer({
    model: 'openai-compatible:main-model',
    baseUrl: `${provider.url}/v1`,
    maxRetries: 1,
    retryDelayMs: 1,
    sleep: async () => {},
    timeoutMs: 5_000,
  });
}

describe('the model summarizer, against a loopback provider', () => {
  it('sends no planted secret and returns none that the model wrote', async () => {
    const provider = await loopback(Array.from({ length: 20 }, () => loopbackReplies.text(LEAKY_CHECKPOINT)));
    const result = await summarizerFor(provider).summarize({
      messages: plantedSession().messages,
      targetTokens: 4_000,
      counter: createRoughCounter(),
      latestUserRequest: `retry with Authorization: Bearer ${TOKEN}`,
    });
    expect(provider.requests.length).toBeGreaterThan(0);
    for (const request of provider.requests) expectClean(JSON.stringify(request.body), 'the request');
    expectClean(result.text, 'the checkpoint');
    expect(result.text).toContain('## Current Request');
  });
});

describe('compaction output', () => {
  it('holds no planted secret in the model checkpoint, nor in what was sent', async () => {
    const provider = await loopback(Array.from({ length: 20 }, () => loopbackReplies.text(LEAKY_CHECKPOINT)));
    const engine = createCompressor({ contextLength: 16_000, model: summarizerFor(provider) });
    const result = await engine.compress(plantedSession(), { force: true });
    expect(result.report.summary.source).toBe('model');
    for (const request of provider.requests) expectClean(JSON.stringify(request.body), 'the request');
    const checkpoint = result.transcript.messages.find((message) => message.meta?.condense !== undefined);
    expect(checkpoint).toBeDefined();
    expectClean(JSON.stringify(checkpoint), 'the checkpoint message');
  });

  it('holds no planted secret in the extractive checkpoint written when the model fails', async () => {
    const provider = await loopback(Array.from({ length: 20 }, () => loopbackReplies.serverError()));
    const engine = createCompressor({ contextLength: 16_000, model: summarizerFor(provider) });
    const result = await engine.compress(plantedSession(), { force: true });
    expect(result.report.summary.source).toBe('extractive');
    const checkpoint = result.transcript.messages.find((message) => message.meta?.condense !== undefined);
    expectClean(JSON.stringify(checkpoint), 'the extractive checkpoint');
  });

  it('of a redacted transcript, written in any format, holds no planted secret', async () => {
    const { transcript } = redactTranscript(plantedSession());
    const engine = createCompressor({ contextLength: 16_000 });
    const result = await engine.compress(transcript, { force: true });
    for (const format of FORMAT_NAMES) {
      const file = encodeDocument({
        format,
        layout: layoutFor(format, 1),
        entries: [{ kind: 'transcript', transcript: result.transcript }],
      });
      expectClean(file, `compacted ${format}`);
    }
  });
});
