import { afterEach, describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import type { Message } from '../../src/model/message.js';
import {
  createModelSummarizer,
  isSummarizerError,
  type SummarizerError,
} from '../../src/summarizer/index.js';
import {
  assistantMessage,
  buildCodingSession,
  checkpointAnswer,
  type LoopbackProvider,
  type LoopbackReply,
  loopbackReplies as reply,
  startLoopbackProvider,
  toolCall,
  toolResult,
  userMessage,
} from '../../src/testing.js';
import { realisticCheckpoint } from '../support/checkpoints.js';
import { counter, FAKE_TOKEN, loopbackSummarizer, promptOf, request } from './helpers.js';

let server: LoopbackProvider | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: readonly LoopbackReply[]): Promise<LoopbackProvider> {
  server = await startLoopbackProvider({ script });
  return server;
}

const session = buildCodingSession({ steps: 6 }).messages;
const CHECKPOINT = checkpointAnswer({
  currentRequest: 'Add a changelog entry.',
  actionLog: '1. EDIT src/a.ts — ok [tool: Edit]',
});
const running = (index: number) => realisticCheckpoint(`running checkpoint ${index}`);

async function failureOf(promise: Promise<unknown>): Promise<SummarizerError> {
  try {
    await promise;
  } catch (error) {
    if (isSummarizerError(error)) return error;
    throw error;
  }
  throw new Error('expected the summarizer to fail');
}

describe('model summarizer: success', () => {
  it.each(['openai', 'anthropic'])('writes the checkpoint returned by %s', async (provider) => {
    const loopback = await start([reply.text(CHECKPOINT, { input: 900, output: 60 })]);
    const { summarizer } = loopbackSummarizer(loopback, { provider });
    const result = await summarizer.summarize(
      request(session, { latestUserRequest: 'Add a changelog entry.' }),
    );
    expect(result).toMatchObject({
      text: CHECKPOINT,
      source: 'model',
      calls: 1,
      inputTokens: 900,
      outputTokens: 60,
    });
    expect(loopback.requests).toHaveLength(1);
    const prompt = promptOf(loopback.requests[0]?.body);
    expect(prompt).toContain('## Action Log');
    expect(prompt).toContain('src/module-0/handler.ts');
    expect(prompt).toContain('Add a changelog entry.');
    expect(prompt).not.toContain('<checkpoint>');
  });

  it('reaches an OpenAI-compatible server without a key', async () => {
    const loopback = await start([reply.text(CHECKPOINT)]);
    const summarizer = createModelSummarizer({
      model: 'openai-compatible:qwen3-8b',
      baseUrl: `${loopback.url}/v1`,
    });
    expect((await summarizer.summarize(request(session))).text).toBe(CHECKPOINT);
    expect(loopback.requests[0]?.credential).toBeUndefined();
    expect(loopback.requests[0]?.model).toBe('qwen3-8b');
  });

  it('updates a previous checkpoint instead of summarizing it', async () => {
    const loopback = await start([reply.text(CHECKPOINT)]);
    const { summarizer } = loopbackSummarizer(loopback);
    await summarizer.summarize(request(session, { previousSummary: '## Goal\nEarlier goal text' }));
    const prompt = promptOf(loopback.requests[0]?.body);
    expect(prompt).toContain('<checkpoint>\n## Goal\nEarlier goal text\n</checkpoint>');
  });

  it('puts the focus topic in the prompt', async () => {
    const loopback = await start([reply.text(CHECKPOINT)]);
    const { summarizer } = loopbackSummarizer(loopback);
    await summarizer.summarize(request(session, { focusTopic: 'the router API' }));
    expect(promptOf(loopback.requests[0]?.body)).toContain(
      'FOCUS: the user asked for this checkpoint to concentrate on: "the router API"',
    );
  });

  it('strips reasoning from the answer', async () => {
    const loopback = await start([
      {
        text: `<think>private chain of thought</think>\n${CHECKPOINT}`,
        reasoning: 'separate reasoning field',
      },
    ]);
    const { summarizer } = loopbackSummarizer(loopback);
    const result = await summarizer.summarize(request(session));
    expect(result.text).toBe(CHECKPOINT);
  });

  it('retries a rate limit after the delay the provider asks for', async () => {
    const loopback = await start([reply.rateLimit(3), reply.text(CHECKPOINT)]);
    const { summarizer, sleeps } = loopbackSummarizer(loopback);
    const result = await summarizer.summarize(request(session));
    expect(result.text).toBe(CHECKPOINT);
    expect(sleeps).toEqual([3000]);
    expect(loopback.requests).toHaveLength(2);
  });

  it('retries server errors with exponential backoff', async () => {
    const loopback = await start([reply.serverError(), reply.unavailable(), reply.text(CHECKPOINT)]);
    const { summarizer, sleeps } = loopbackSummarizer(loopback, { retryDelayMs: 100 });
    expect((await summarizer.summarize(request(session))).text).toBe(CHECKPOINT);
    expect(sleeps).toEqual([100, 200]);
  });
});

describe('model summarizer: failures', () => {
  const cases: [string, LoopbackReply, SummarizerError['failure'], number | undefined, boolean][] = [
    ['401', reply.auth(), 'auth', 401, false],
    ['quota (429 insufficient_quota)', reply.quota(), 'quota', 429, false],
    ['402', reply.paymentRequired(), 'quota', 402, false],
    ['404 model', reply.modelNotFound(), 'model-not-found', 404, false],
    ['429', reply.rateLimit(1), 'rate-limit', 429, true],
    ['500', reply.serverError(), 'other', 500, true],
    ['malformed body', reply.malformed(), 'invalid-response', 200, true],
    ['cut body', reply.cut(), 'network', 200, true],
    ['empty answer', reply.empty(), 'invalid-response', undefined, true],
  ];

  it.each(cases)('classifies %s', async (_name, fault, failure, status, retryable) => {
    const loopback = await start([fault, fault, fault]);
    const { summarizer } = loopbackSummarizer(loopback, { maxRetries: 2 });
    const error = await failureOf(summarizer.summarize(request(session)));
    expect(error.failure).toBe(failure);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.calls).toBe(retryable ? 3 : 1);
    expect(loopback.requests).toHaveLength(retryable ? 3 : 1);
    expect(error.code).toBe(failure === 'auth' || failure === 'quota' ? 'AUTH_FAILED' : 'SUMMARY_FAILED');
  });

  it('classifies the same faults from Anthropic', async () => {
    const loopback = await start([reply.auth(), { kind: 'error', status: 529 }, reply.modelNotFound()]);
    const { summarizer } = loopbackSummarizer(loopback, { provider: 'anthropic', maxRetries: 0 });
    expect((await failureOf(summarizer.summarize(request(session)))).failure).toBe('auth');
    expect((await failureOf(summarizer.summarize(request(session)))).failure).toBe('rate-limit');
    expect((await failureOf(summarizer.summarize(request(session)))).failure).toBe('model-not-found');
  });

  it('times out a request that gets no answer', async () => {
    const loopback = await start([reply.hang()]);
    const { summarizer } = loopbackSummarizer(loopback, { timeoutMs: 150, maxRetries: 0 });
    const error = await failureOf(summarizer.summarize(request(session)));
    expect(error.failure).toBe('timeout');
    expect(error.code).toBe('TIMEOUT');
  });

  it('reports an unreachable server as a network failure', async () => {
    const loopback = await start([]);
    const url = loopback.url;
    await loopback.close();
    server = undefined;
    const summarizer = createModelSummarizer({
      model: 'openai:m',
      apiKey: 'k',
      baseUrl: `${url}/v1`,
      maxRetries: 0,
    });
    expect((await failureOf(summarizer.summarize(request(session)))).failure).toBe('network');
  });

  it('fails without a request when OpenAI or Anthropic has no key', async () => {
    const loopback = await start([reply.text(CHECKPOINT)]);
    const summarizer = createModelSummarizer({
      model: 'anthropic:claude-haiku-4-5',
      baseUrl: `${loopback.url}/v1`,
    });
    const error = await failureOf(summarizer.summarize(request(session)));
    expect(error.failure).toBe('auth');
    expect(loopback.requests).toHaveLength(0);
  });

  it('stops with ABORTED when the caller cancels, without retrying', async () => {
    const loopback = await start([reply.hang(), reply.hang()]);
    const { summarizer } = loopbackSummarizer(loopback, { maxRetries: 3 });
    const controller = new AbortController();
    const pending = summarizer.summarize(request(session), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((caught: unknown) => caught);
    expect(isCondenseError(error) && error.code).toBe('ABORTED');
    expect(isSummarizerError(error)).toBe(false);
  });

  it('never returns an error object as a checkpoint', async () => {
    const loopback = await start([reply.text('{"error": {"message": "upstream failed"}}')]);
    const { summarizer } = loopbackSummarizer(loopback, { maxRetries: 0 });
    expect((await failureOf(summarizer.summarize(request(session)))).failure).toBe('invalid-response');
  });

  it('refuses a window too small for the prompt', async () => {
    const loopback = await start([reply.text(CHECKPOINT)]);
    const { summarizer } = loopbackSummarizer(loopback, { contextWindow: 800 });
    const error = await failureOf(summarizer.summarize(request(session)));
    expect(error.failure).toBe('other');
    expect(loopback.requests).toHaveLength(0);
  });

  it('rejects a spec it cannot read', () => {
    expect(() => createModelSummarizer({ model: 'gpt-4o' })).toThrow(/cannot read the model spec/);
    expect(() => createModelSummarizer({ model: 'mistral:large' })).toThrow(/cannot read the model spec/);
    expect(() => createModelSummarizer({ model: 'openai-compatible:x' })).toThrow(/needs a base URL/);
  });
});

describe('model summarizer: chunked folding', () => {
  const long: Message[] = [];
  for (let index = 0; index < 40; index++) {
    const marker = `marker-${String(index).padStart(3, '0')}`;
    const call = toolCall('Bash', { command: `echo ${marker}` }, `call_${index}`);
    long.push(userMessage(`Step ${marker}: ${'please keep going with the work '.repeat(20)}`));
    long.push(assistantMessage(`Running ${marker}.`, call));
    long.push(toolResult(call, `${marker} output ${'lorem ipsum dolor '.repeat(40)}`));
  }

  it('folds input longer than the window in order, each chunk updating the previous answer', async () => {
    const loopback = await startLoopbackProvider({
      script: (_request, index) => reply.text(running(index + 1)),
    });
    server = loopback;
    const { summarizer } = loopbackSummarizer(loopback, { contextWindow: 6000 });
    const result = await summarizer.summarize(request(long, { targetTokens: 600 }));
    const prompts = loopback.requests.map((recorded) => promptOf(recorded.body));
    expect(prompts.length).toBeGreaterThan(2);
    expect(result.calls).toBe(prompts.length);
    expect(result.text).toBe(running(prompts.length));
    expect(prompts[0]).not.toContain('<checkpoint>');
    prompts.slice(1).forEach((prompt, index) => {
      expect(prompt).toContain(`<checkpoint>\n${running(index + 1)}\n</checkpoint>`);
    });
    const seen = prompts.flatMap((prompt) =>
      [...prompt.matchAll(/Running (marker-\d{3})\./g)].map((match) => match[1]),
    );
    expect(seen).toEqual(
      long
        .filter((_m, index) => index % 3 === 1)
        .map((_m, index) => `marker-${String(index).padStart(3, '0')}`),
    );
    for (const prompt of prompts) expect(counter.countText(prompt)).toBeLessThan(6000);
  });

  it('cuts a single message that is larger than the whole window', async () => {
    const loopback = await start([reply.text(CHECKPOINT)]);
    const huge = [userMessage(`start ${'x y z '.repeat(20_000)} end`)];
    const { summarizer } = loopbackSummarizer(loopback, { contextWindow: 4000 });
    await summarizer.summarize(request(huge, { targetTokens: 500 }));
    const prompt = promptOf(loopback.requests[0]?.body);
    expect(counter.countText(prompt)).toBeLessThan(4000);
    expect(prompt).toContain('characters omitted');
  });
});

describe('model summarizer: redaction', () => {
  it('sends no secret from the turns, the previous checkpoint, the request or the focus', async () => {
    const loopback = await start([reply.text(CHECKPOINT)]);
    const call = toolCall('Bash', {
      command: `curl -H "Authorization: token ${FAKE_TOKEN}" https://api.github.com`,
    });
    const turns = [
      userMessage(`Use the token ${FAKE_TOKEN} to push.`),
      assistantMessage('Pushing.', call),
      toolResult(call, `remote: using ${FAKE_TOKEN}`),
    ];
    const { summarizer } = loopbackSummarizer(loopback);
    await summarizer.summarize(
      request(turns, {
        previousSummary: `## Critical Context\n- token ${FAKE_TOKEN}`,
        latestUserRequest: `push with ${FAKE_TOKEN}`,
        focusTopic: `the ${FAKE_TOKEN} token`,
      }),
    );
    const sent = JSON.stringify(loopback.requests);
    expect(sent).toContain('api.github.com');
    expect(sent).not.toContain(FAKE_TOKEN);
  });

  it('removes a secret the model writes into its answer', async () => {
    const loopback = await start([reply.text(`${CHECKPOINT}\n- key ${FAKE_TOKEN}`)]);
    const { summarizer } = loopbackSummarizer(loopback);
    const result = await summarizer.summarize(request(session));
    expect(result.text).toContain('## References');
    expect(result.text).not.toContain(FAKE_TOKEN);
  });
});
