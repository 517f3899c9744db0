import { afterEach, describe, expect, it } from 'vitest';
import { decodeResponses } from '../../src/codecs/openai-responses/index.js';
import { isSummarizerError, type SummarizerError } from '../../src/summarizer/index.js';
import {
  buildCodingSession,
  checkpointAnswer,
  type LoopbackProvider,
  type LoopbackReply,
  loopbackReplies as reply,
  startLoopbackProvider,
} from '../../src/testing.js';
import { loopbackSummarizer, promptOf, request } from './helpers.js';

let server: LoopbackProvider | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: readonly LoopbackReply[]): Promise<LoopbackProvider> {
  server = await startLoopbackProvider({ script });
  return server;
}

async function failureOf(promise: Promise<unknown>): Promise<SummarizerError> {
  try {
    await promise;
  } catch (error) {
    if (isSummarizerError(error)) return error;
    throw error;
  }
  throw new Error('expected the summarizer to fail');
}

const CHECKPOINT = checkpointAnswer({
  currentRequest: 'Fix the flaky test.',
  nextStep: 'Re-run the suite.',
});
const session = buildCodingSession({ steps: 4 }).messages;

/** A Responses API conversation whose model turn carries a reasoning summary and encrypted reasoning. */
const REASONING_TURNS = decodeResponses({
  model: 'gpt-5',
  input: [
    { role: 'user', content: 'Why does the test fail?' },
    {
      type: 'reasoning',
      id: 'rs_7',
      summary: [{ type: 'summary_text', text: 'PRIVATE-REASONING-SUMMARY about the flake' }],
      encrypted_content: 'gAAAAAB-PRIVATE-ENCRYPTED-BLOB',
    },
    { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"cmd":"npm test"}' },
    { type: 'function_call_output', call_id: 'c1', output: 'FAIL src/flaky.test.ts' },
    {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'The test races a timer.' }],
    },
  ],
}).value.messages;

describe('model summarizer on the OpenAI Responses API (openai: specs)', () => {
  it('sends the checkpoint prompt to /v1/responses, not stored, and reads the answer', async () => {
    const loopback = await start([reply.text(CHECKPOINT, { input: 700, output: 40 })]);
    const { summarizer } = loopbackSummarizer(loopback);
    const result = await summarizer.summarize(request(session, { latestUserRequest: 'Fix the flaky test.' }));
    expect(result).toMatchObject({ text: CHECKPOINT, source: 'model', inputTokens: 700, outputTokens: 40 });
    const sent = loopback.requests[0];
    expect(sent).toMatchObject({ path: '/v1/responses', protocol: 'openai-responses' });
    expect(sent?.body).toMatchObject({ store: false });
    const prompt = promptOf(sent?.body);
    expect(prompt).toContain('## Current Request');
    expect(prompt).toContain('## Next Step');
    expect(prompt).toContain('Fix the flaky test.');
  });

  it('never shows reasoning items, summaries or encrypted content, to the summary model', async () => {
    const loopback = await start([reply.text(CHECKPOINT)]);
    const { summarizer } = loopbackSummarizer(loopback);
    await summarizer.summarize(request(REASONING_TURNS));
    const body = JSON.stringify(loopback.requests[0]?.body);
    expect(body).toContain('FAIL src/flaky.test.ts');
    expect(body).not.toContain('PRIVATE-REASONING-SUMMARY');
    expect(body).not.toContain('PRIVATE-ENCRYPTED-BLOB');
  });

  it.each([
    ['auth', reply.auth(), false],
    ['quota', reply.quota(), false],
    ['rate-limit', reply.rateLimit(1), true],
    ['model-not-found', reply.modelNotFound(), false],
    ['other', reply.serverError(), true],
    ['invalid-response', reply.malformed(), true],
  ] as const)('classifies a %s failure of the Responses API', async (failure, fault, retryable) => {
    const loopback = await start([fault]);
    const { summarizer } = loopbackSummarizer(loopback, { maxRetries: 0 });
    const error = await failureOf(summarizer.summarize(request(session)));
    expect(error.failure).toBe(failure);
    expect(error.retryable).toBe(retryable);
    expect(loopback.requests[0]?.protocol).toBe('openai-responses');
  });

  it.each([
    ['server_error', 'other', true],
    ['rate_limit_exceeded', 'rate-limit', true],
    ['invalid_prompt', 'other', false],
  ] as const)('classifies a response that failed with %s', async (code, failure, retryable) => {
    const failed = JSON.stringify({
      id: 'resp_x',
      object: 'response',
      status: 'failed',
      error: { code, message: `the response failed: ${code}` },
      output: [],
      usage: null,
    });
    const loopback = await start([reply.malformed(failed)]);
    const { summarizer } = loopbackSummarizer(loopback, { maxRetries: 0 });
    const error = await failureOf(summarizer.summarize(request(session)));
    expect(error).toMatchObject({ failure, retryable });
    expect(error.message).toContain(code);
  });

  it('refuses a checkpoint cut at the output limit instead of keeping half of it', async () => {
    const cut = JSON.stringify({
      id: 'resp_y',
      object: 'response',
      created_at: 0,
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      model: 'gpt-4o-mini',
      output: [
        {
          type: 'message',
          id: 'msg_y',
          role: 'assistant',
          status: 'incomplete',
          content: [{ type: 'output_text', text: '## Active Task\nFix the', annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
    });
    const loopback = await start([reply.malformed(cut)]);
    const { summarizer } = loopbackSummarizer(loopback, { maxRetries: 2 });
    const error = await failureOf(summarizer.summarize(request(session)));
    expect(error).toMatchObject({ failure: 'invalid-response', retryable: false });
    expect(loopback.requests).toHaveLength(1);
  });
});
