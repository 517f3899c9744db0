import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackProvider, loopbackReplies as reply, startLoopbackProvider } from '../../src/testing.js';

let server: LoopbackProvider | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(
  script: Parameters<typeof startLoopbackProvider>[0]['script'],
): Promise<LoopbackProvider> {
  server = await startLoopbackProvider({ script });
  return server;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body. */
function sseData(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
}

describe('loopback provider over raw HTTP', () => {
  it('answers an OpenAI chat completion with the scripted text and usage', async () => {
    const provider = await start([reply.text('hello there', { input: 42, output: 7 })]);
    const response = await post(`${provider.url}/v1/chat/completions`, { model: 'gpt-x', messages: [] });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.choices[0].message.content).toBe('hello there');
    expect(body.usage).toEqual({ prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 });
    expect(body.model).toBe('gpt-x');
  });

  it('streams an OpenAI completion as SSE chunks ending with [DONE]', async () => {
    const provider = await start([reply.text('streamed answer')]);
    const response = await post(`${provider.url}/v1/chat/completions`, {
      model: 'm',
      stream: true,
      messages: [],
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const data = sseData(await response.text());
    expect(data[data.length - 1]).toBe('[DONE]');
    const text = data
      .slice(0, -1)
      .map((chunk) => JSON.parse(chunk).choices[0]?.delta?.content ?? '')
      .join('');
    expect(text).toBe('streamed answer');
  });

  it('answers an Anthropic message, JSON and event stream', async () => {
    const provider = await start([reply.text('from claude'), reply.text('streamed claude')]);
    const json = (await (
      await post(`${provider.url}/v1/messages`, { model: 'c', messages: [] })
    ).json()) as any;
    expect(json.content).toEqual([{ type: 'text', text: 'from claude' }]);
    expect(json.stop_reason).toBe('end_turn');
    const stream = await (
      await post(`${provider.url}/v1/messages`, { model: 'c', stream: true, messages: [] })
    ).text();
    expect(stream).toContain('event: message_start');
    expect(stream).toContain('event: message_stop');
    const text = sseData(stream)
      .map((chunk) => JSON.parse(chunk))
      .filter((event) => event.type === 'content_block_delta')
      .map((event) => event.delta.text)
      .join('');
    expect(text).toBe('streamed claude');
  });

  it('sends provider-shaped error bodies with the status and retry-after', async () => {
    const provider = await start([reply.rateLimit(3), reply.auth(), reply.quota(), reply.modelNotFound()]);
    const limited = await post(`${provider.url}/v1/chat/completions`, { model: 'm' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(((await limited.json()) as any).error.code).toBe('rate_limit_exceeded');
    const auth = await post(`${provider.url}/v1/messages`, { model: 'm' });
    expect(auth.status).toBe(401);
    expect(await auth.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const quota = (await (await post(`${provider.url}/v1/chat/completions`, { model: 'm' })).json()) as any;
    expect(quota.error.code).toBe('insufficient_quota');
    const missing = await post(`${provider.url}/v1/chat/completions`, { model: 'm' });
    expect(missing.status).toBe(404);
  });

  it('sends malformed JSON, empty content and cut bodies', async () => {
    const provider = await start([reply.malformed(), reply.empty(), reply.cut()]);
    const malformed = await post(`${provider.url}/v1/chat/completions`, { model: 'm' });
    await expect(malformed.json()).rejects.toThrow();
    const empty = (await (await post(`${provider.url}/v1/chat/completions`, { model: 'm' })).json()) as any;
    expect(empty.choices[0].message.content).toBe('');
    await expect(
      post(`${provider.url}/v1/chat/completions`, { model: 'm' }).then((r) => r.text()),
    ).rejects.toThrow();
  });

  it('records requests without credentials, and 404s unknown paths', async () => {
    const provider = await start([reply.text('a')]);
    await post(
      `${provider.url}/v1/chat/completions`,
      { model: 'gpt', messages: [{ role: 'user', content: 'hi' }] },
      {
        authorization: 'Bearer sk-should-not-be-recorded',
      },
    );
    const unknown = await post(`${provider.url}/v2/other`, {});
    expect(unknown.status).toBe(404);
    expect(provider.requests).toHaveLength(2);
    const [first] = provider.requests;
    expect(first).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      protocol: 'openai',
      model: 'gpt',
    });
    expect(first?.credential).toBe('authorization');
    expect(JSON.stringify(provider.requests)).not.toContain('sk-should-not-be-recorded');
    expect(first?.body).toEqual({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('reports an exhausted script as a 500 and accepts a script function', async () => {
    const provider = await start((request, index) => reply.text(`answer ${index} to ${request.model}`));
    const body = (await (await post(`${provider.url}/v1/chat/completions`, { model: 'q' })).json()) as any;
    expect(body.choices[0].message.content).toBe('answer 0 to q');
    await server?.close();
    const exhausted = await start([]);
    expect((await post(`${exhausted.url}/v1/chat/completions`, { model: 'q' })).status).toBe(500);
  });

  it('holds a hanging request until the client gives up, and close() still returns', async () => {
    const provider = await start([reply.hang()]);
    const pending = fetch(`${provider.url}/v1/chat/completions`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(100),
    });
    await expect(pending).rejects.toThrow();
    await provider.close();
    server = undefined;
  });
});

describe('loopback provider with the AI SDK', () => {
  const prompt = 'Say something.';

  it('serves generateText and streamText through the OpenAI provider', async () => {
    const provider = await start([reply.text('plain', { input: 11, output: 3 }), reply.text('streamed')]);
    const openai = createOpenAI({ apiKey: 'test-key', baseURL: `${provider.url}/v1` });
    const result = await generateText({ model: openai.chat('gpt-4o-mini'), prompt, maxRetries: 0 });
    expect(result.text).toBe('plain');
    expect(result.usage.inputTokens).toBe(11);
    const stream = streamText({ model: openai.chat('gpt-4o-mini'), prompt, maxRetries: 0 });
    expect(await stream.text).toBe('streamed');
    expect(provider.requests[1]?.stream).toBe(true);
  });

  it('serves generateText and streamText through the Anthropic provider, reasoning included', async () => {
    const provider = await start([
      { text: 'visible', reasoning: 'hidden thoughts' },
      reply.text('streamed from claude'),
    ]);
    const anthropic = createAnthropic({ apiKey: 'test-key', baseURL: `${provider.url}/v1` });
    const model = anthropic('claude-3-5-haiku-latest');
    const result = await generateText({ model, prompt, maxRetries: 0 });
    expect(result.text).toBe('visible');
    expect(result.reasoningText).toBe('hidden thoughts');
    expect(await streamText({ model, prompt, maxRetries: 0 }).text).toBe('streamed from claude');
    expect(provider.requests[0]?.credential).toBe('x-api-key');
  });

  it('serves tool calls through the OpenAI-compatible provider', async () => {
    const provider = await start([
      reply.toolCalls([{ id: 'call_1', name: 'lookup', arguments: { q: 'x' } }]),
    ]);
    const compatible = createOpenAICompatible({ name: 'local', baseURL: `${provider.url}/v1` });
    const result = await generateText({ model: compatible.chatModel('qwen'), prompt, maxRetries: 0 });
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'lookup', input: { q: 'x' } });
    expect(provider.requests[0]?.credential).toBeUndefined();
  });

  it('surfaces faults as the AI SDK errors a client sees', async () => {
    const provider = await start([reply.serverError(), reply.cut('partial')]);
    const openai = createOpenAI({ apiKey: 'k', baseURL: `${provider.url}/v1` });
    await expect(generateText({ model: openai.chat('m'), prompt, maxRetries: 0 })).rejects.toMatchObject({
      statusCode: 500,
    });
    const stream = streamText({ model: openai.chat('m'), prompt, maxRetries: 0, onError: () => {} });
    await expect(stream.text).rejects.toThrow();
  });
});
