import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxyEvent, parseCondenseHeader, startProxy } from '../../../src/node.js';
import { loopbackReplies } from '../../../src/testing.js';
import {
  anthropicRequest,
  openaiRequest,
  postJson,
  type RecordingUpstream,
  type Rig,
  startRecordingUpstream,
  startRig,
  waitFor,
} from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rig(options: Parameters<typeof startRig>[0] = {}): Promise<Rig> {
  const started = await startRig(options);
  cleanups.push(started.stop);
  return started;
}

async function recording(answer?: Parameters<typeof startRecordingUpstream>[0]): Promise<RecordingUpstream> {
  const upstream = await startRecordingUpstream(answer);
  cleanups.push(upstream.close);
  return upstream;
}

async function proxyTo(
  upstream: string,
  options: { maxBodyBytes?: number; onEvent?: (e: ProxyEvent) => void } = {},
) {
  const proxy = await startProxy({ upstream, port: 0, engineOptions: { contextLength: 8_000 }, ...options });
  cleanups.push(() => proxy.close());
  return proxy;
}

describe('condense proxy: forwarding', () => {
  it('answers an OpenAI client (AI SDK, non-streaming and streaming) through the proxy', async () => {
    const { proxy, provider } = await rig({
      script: [loopbackReplies.text('hello there'), loopbackReplies.text('streamed reply')],
    });
    const openai = createOpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-test' });
    const plain = await generateText({ model: openai.chat('gpt-test'), prompt: 'Say hello.' });
    expect(plain.text).toBe('hello there');
    const stream = streamText({ model: openai.chat('gpt-test'), prompt: 'Stream something.' });
    let text = '';
    for await (const piece of stream.textStream) text += piece;
    expect(text).toBe('streamed reply');
    expect(provider.requests.map((request) => [request.path, request.stream])).toEqual([
      ['/v1/chat/completions', false],
      ['/v1/chat/completions', true],
    ]);
  });

  it('answers an Anthropic client (AI SDK, non-streaming and streaming) through the proxy', async () => {
    const { proxy, provider } = await rig({
      script: [loopbackReplies.text('bonjour'), loopbackReplies.text('a stream')],
    });
    const anthropic = createAnthropic({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-ant-test' });
    const plain = await generateText({
      model: anthropic('claude-test'),
      prompt: 'Say hello.',
      maxOutputTokens: 100,
    });
    expect(plain.text).toBe('bonjour');
    const stream = streamText({ model: anthropic('claude-test'), prompt: 'Stream.', maxOutputTokens: 100 });
    let text = '';
    for await (const piece of stream.textStream) text += piece;
    expect(text).toBe('a stream');
    expect(provider.requests.map((request) => request.protocol)).toEqual(['anthropic', 'anthropic']);
    expect(provider.requests.every((request) => request.credential === 'x-api-key')).toBe(true);
  });

  it('forwards credentials and the query string, and drops its own conversation header', async () => {
    const upstream = await recording();
    const proxy = await proxyTo(`${upstream.url}/v1`);
    const response = await postJson(
      `${proxy.url}/v1/chat/completions?api-version=2024-06-01`,
      openaiRequest(2),
      {
        'x-condense-conversation': 'mine',
      },
    );
    expect(response.status).toBe(200);
    const [request] = upstream.requests;
    expect(request?.url).toBe('/v1/chat/completions?api-version=2024-06-01');
    expect(request?.headers['authorization']).toBe('Bearer sk-test-secret');
    expect(request?.headers['x-condense-conversation']).toBeUndefined();
  });

  it('sends an under-threshold body upstream byte-identical', async () => {
    const upstream = await recording();
    const proxy = await proxyTo(upstream.url);
    // Unusual spacing and key order: anything re-serialized would differ.
    const text = `{ "messages" : ${JSON.stringify(openaiRequest(3).messages, null, 1)}, "model":"m", "temperature": 0.70 }`;
    const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: text });
    expect(response.status).toBe(200);
    expect(upstream.requests[0]?.body.toString('utf8')).toBe(text);
    const header = parseCondenseHeader(response.headers.get('x-condense') ?? '');
    expect(header.action).toBe('passthrough');
    expect(Number(header.fields['tokens'])).toBeGreaterThan(0);
  });

  it('forwards a body that is not JSON untouched and lets the upstream answer', async () => {
    const upstream = await recording((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"bad json"}}');
    });
    const proxy = await proxyTo(upstream.url);
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', body: '{not json' });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('{"error":{"message":"bad json"}}');
    expect(upstream.requests[0]?.body.toString()).toBe('{not json');
    expect(response.headers.get('x-condense')).toBe('passthrough; reason=not-json');
  });

  it('passes other routes through (GET /v1/models gets the upstream answer)', async () => {
    const { proxy, provider } = await rig();
    const response = await fetch(`${proxy.url}/v1/models`, { headers: { authorization: 'Bearer k' } });
    expect(response.status).toBe(404);
    expect(provider.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      credential: 'authorization',
    });
  });

  it.each([
    ['429', loopbackReplies.rateLimit(7), 429],
    ['500', loopbackReplies.serverError(), 500],
  ])('passes an upstream %s through with its body and headers', async (_name, reply, status) => {
    const { proxy } = await rig({ script: [reply] });
    const response = await postJson(`${proxy.url}/v1/chat/completions`, openaiRequest(2));
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: { type: string } };
    expect(body.error.type).toBeTruthy();
    if (status === 429) expect(response.headers.get('retry-after')).toBe('7');
  });

  it('answers 502 with a provider-shaped error when the upstream is down', async () => {
    const upstream = await startRecordingUpstream();
    await upstream.close();
    const proxy = await proxyTo(upstream.url);
    const openai = await postJson(`${proxy.url}/v1/chat/completions`, openaiRequest(2));
    expect(openai.status).toBe(502);
    expect(((await openai.json()) as { error: { type: string } }).error.type).toBe('upstream_unreachable');
    const anthropic = await postJson(`${proxy.url}/v1/messages`, anthropicRequest(2));
    expect(anthropic.status).toBe(502);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'upstream_unreachable' } });
    expect(anthropic.headers.get('x-condense')).toBe('error; reason=upstream-unreachable');
  });

  it('refuses a body over the limit with 413, declared or streamed', async () => {
    const upstream = await recording();
    const proxy = await proxyTo(upstream.url, { maxBodyBytes: 4_096 });
    const big = JSON.stringify(openaiRequest(40));
    const declared = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: big });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { type: string } }).error.type).toBe('request_too_large');
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 8; index++) controller.enqueue(Buffer.from(big.slice(0, 2_000)));
        controller.close();
      },
    });
    const streamed = await fetch(`${proxy.url}/v1/messages`, {
      method: 'POST',
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(upstream.requests).toHaveLength(0);
  });

  it('streams server-sent events as they come: the first event arrives before the upstream sends the last', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const upstream = await recording((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"n":1}\n\n');
      void released.then(() => response.end('data: {"n":2}\n\ndata: [DONE]\n\n'));
    });
    const proxy = await proxyTo(upstream.url);
    const response = await postJson(`${proxy.url}/v1/chat/completions`, openaiRequest(2, { stream: true }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value ?? new Uint8Array()).toString()).toContain('"n":1');
    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += Buffer.from(chunk.value).toString();
    expect(rest).toContain('[DONE]');
  });

  it('cancels the upstream call when the client goes away', async () => {
    const upstream = await recording((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"n":1}\n\n');
    });
    const events: ProxyEvent[] = [];
    const proxy = await proxyTo(upstream.url, { onEvent: (event) => events.push(event) });
    const controller = new AbortController();
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(openaiRequest(2, { stream: true })),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await waitFor(() => upstream.closedEarly.length === 1);
    await waitFor(() => events.length === 1);
    expect(events[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', status: 200 });
  });
});
