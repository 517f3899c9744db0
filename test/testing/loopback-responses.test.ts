import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyResponsesInput } from '../../src/codecs/openai-responses/index.js';
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

/** The AI SDK's default OpenAI provider: `openai(id)` speaks the Responses API. */
function model(provider: LoopbackProvider, id = 'gpt-5-mini') {
  return createOpenAI({ apiKey: 'sk-loopback', baseURL: `${provider.url}/v1` })(id);
}

const echo = tool({
  description: 'Echo the text back',
  inputSchema: jsonSchema<{ text: string }>({
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  }),
  execute: async ({ text }) => `echo: ${text}`,
});

describe('loopback provider speaking the Responses API', () => {
  it("answers the AI SDK's default OpenAI provider with text, reasoning and usage", async () => {
    const provider = await start([
      { text: 'hello from responses', reasoning: 'thinking it over', usage: { input: 21, output: 4 } },
    ]);
    const result = await generateText({ model: model(provider), prompt: 'Say hello' });
    expect(result.text).toBe('hello from responses');
    expect(result.reasoningText).toBe('thinking it over');
    expect(result.usage.inputTokens).toBe(21);
    expect(provider.requests[0]).toMatchObject({
      path: '/v1/responses',
      protocol: 'openai-responses',
      credential: 'authorization',
    });
  });

  it('streams text deltas and usage', async () => {
    const provider = await start([reply.text('streamed over the Responses API', { input: 9, output: 3 })]);
    const result = streamText({ model: model(provider), prompt: 'go' });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('streamed over the Responses API');
    expect((await result.usage).inputTokens).toBe(9);
    expect(provider.requests[0]?.stream).toBe(true);
  });

  it('runs a tool loop: function calls answered by function_call_output items the request pairs', async () => {
    const provider = await start([
      reply.toolCalls([{ id: 'call_a', name: 'echo', arguments: { text: 'one' } }], 'Calling echo.'),
      reply.toolCalls([{ id: 'call_b', name: 'echo', arguments: { text: 'two' } }]),
      reply.text('done'),
    ]);
    const result = await generateText({
      model: model(provider),
      tools: { echo },
      prompt: 'Echo twice',
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('done');
    expect(provider.requests).toHaveLength(3);
    const input = (provider.requests[2]?.body as { input: unknown[] } | undefined)?.input ?? [];
    expect(verifyResponsesInput(input)).toEqual([]);
    expect(input).toContainEqual({ type: 'function_call_output', call_id: 'call_b', output: 'echo: two' });
  });

  it('returns encrypted reasoning when the request includes it', async () => {
    const provider = await start([{ text: 'ok', reasoning: 'secret thoughts' }]);
    const response = await fetch(`${provider.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        input: 'hi',
        include: ['reasoning.encrypted_content'],
        store: false,
      }),
    });
    const body = (await response.json()) as { output: { type: string; encrypted_content?: string }[] };
    expect(body.output[0]).toMatchObject({
      type: 'reasoning',
      encrypted_content: expect.stringMatching(/^loopback-encrypted-/),
    });
  });

  it('injects the same faults: provider-shaped errors with retry-after, cut streams, malformed bodies', async () => {
    const provider = await start([reply.rateLimit(3), reply.cut('never finished'), reply.malformed()]);
    const rate = await generateText({ model: model(provider), prompt: 'x', maxRetries: 0 }).catch(
      (error: unknown) => error,
    );
    expect(APICallError.isInstance(rate)).toBe(true);
    expect((rate as APICallError).statusCode).toBe(429);
    expect((rate as APICallError).responseHeaders?.['retry-after']).toBe('3');
    const cut = streamText({ model: model(provider), prompt: 'x', maxRetries: 0 });
    await expect(
      (async () => {
        for await (const _ of cut.textStream) {
          // drain
        }
      })(),
    ).rejects.toThrow();
    await expect(generateText({ model: model(provider), prompt: 'x', maxRetries: 0 })).rejects.toThrow();
  });
});
