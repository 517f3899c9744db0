import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyResponsesInput } from '../../../src/codecs/openai-responses/index.js';
import { getCodec } from '../../../src/codecs/registry.js';
import { createEngine } from '../../../src/engines/registry.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { parseCondenseHeader } from '../../../src/node.js';
import { buildCodingSession } from '../../../src/testing/transcript-builders.js';
import { type LoopbackRequest, loopbackReplies } from '../../../src/testing.js';
import { postJson, type Rig, SMALL_WINDOW, startRig } from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rig(options: Parameters<typeof startRig>[0] = {}): Promise<Rig> {
  const started = await startRig(options);
  cleanups.push(started.stop);
  return started;
}

type ResponsesBody = { input: unknown[]; instructions?: string } & Record<string, unknown>;

/** An OpenAI Responses request body holding a coding session of `steps` tool steps. */
function responsesRequest(steps: number, extra: Record<string, unknown> = {}): ResponsesBody {
  const wire = getCodec('openai-responses').encode(buildCodingSession({ steps })) as ResponsesBody;
  return { model: 'gpt-test', ...wire, store: false, ...extra };
}

function valid(body: ResponsesBody): void {
  expect(verifyResponsesInput(body.input)).toEqual([]);
  expect(verifyTranscript(getCodec('openai-responses').decode(body).value, { provider: 'openai' })).toEqual(
    [],
  );
}

describe('condense proxy: OpenAI Responses API', () => {
  it('compacts a long conversation on POST /v1/responses: instructions, latest items and other fields kept', async () => {
    const { proxy, provider } = await rig();
    const tools = [{ type: 'function', name: 'Read', parameters: { type: 'object' } }];
    const request = responsesRequest(120, {
      tools,
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
    });
    const response = await postJson(`${proxy.url}/v1/responses`, request);
    expect(response.status).toBe(200);
    const header = parseCondenseHeader(response.headers.get('x-condense') ?? '');
    expect(header.action).toBe('compacted');
    const sent = provider.requests[0]?.body as ResponsesBody;
    expect(provider.requests[0]?.path).toBe('/v1/responses');
    expect(sent.input.length).toBeLessThan(request.input.length);
    expect(sent.input.at(-1)).toEqual(request.input.at(-1));
    expect(sent.instructions).toBe(request.instructions);
    const { input: _sentInput, ...sentRest } = sent;
    const { input: _input, ...rest } = request;
    expect(sentRest).toEqual(rest);
    valid(sent);
  });

  it.each([
    ['previous-response-id', { previous_response_id: 'resp_123' }],
    ['stored-conversation', { conversation: 'conv_123' }],
    ['stored-conversation', { conversation: { id: 'conv_123' } }],
  ])('passes a request chained on server-side history through untouched (%s)', async (reason, chain) => {
    const { proxy, provider } = await rig();
    const request = responsesRequest(120, chain);
    const response = await postJson(`${proxy.url}/v1/responses`, request);
    const header = parseCondenseHeader(response.headers.get('x-condense') ?? '');
    expect(header).toMatchObject({ action: 'passthrough', fields: { reason } });
    expect(provider.requests[0]?.body).toEqual(request);
  });

  it('passes other Responses routes through (retrieval, input token counts)', async () => {
    const { proxy, provider } = await rig();
    const response = await postJson(`${proxy.url}/v1/responses/input_tokens`, responsesRequest(120));
    expect(parseCondenseHeader(response.headers.get('x-condense') ?? '')).toMatchObject({
      action: 'passthrough',
      fields: { reason: 'route' },
    });
    expect(provider.requests[0]?.path).toBe('/v1/responses/input_tokens');
  });

  it('streams the answer event by event and learns the prompt size from response.completed', async () => {
    const seen: number[] = [];
    const { proxy } = await rig({
      script: () => loopbackReplies.text('streamed', { input: 4321, output: 3 }),
      proxy: {
        engine: () => {
          const inner = createEngine('compressor', { contextLength: SMALL_WINDOW });
          const update = inner.updateFromResponse.bind(inner);
          inner.updateFromResponse = (usage) => {
            seen.push(usage.promptTokens);
            update(usage);
          };
          return inner;
        },
      },
    });
    const response = await postJson(`${proxy.url}/v1/responses`, responsesRequest(3, { stream: true }));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await response.text()).split('\n\n').filter((block) => block.startsWith('event: '));
    expect(events[0]).toMatch(/^event: response\.created/);
    expect(events.at(-1)).toMatch(/^event: response\.completed/);
    expect(seen).toEqual([4321]);
  });
});

const readFile = tool({
  description: 'Read a file of the repository',
  inputSchema: jsonSchema<{ path: string }>({
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  }),
  execute: async ({ path }) =>
    Array.from(
      { length: 40 },
      (_, line) => `${path}:${line + 1}: export const value${line} = compute(${line});`,
    ).join('\n'),
});

/** Scripted model: 49 steps that read a file each (with a reasoning summary), then a final answer. */
function agentScript(request: LoopbackRequest, index: number) {
  const input = JSON.stringify((request.body as { input?: unknown }).input ?? '').length;
  const usage = { input: Math.round(input / 4), output: 30 };
  if (index >= 49) return loopbackReplies.text('All 49 files are read; the values are consistent.', usage);
  return {
    kind: 'tool-calls' as const,
    text: index % 5 === 0 ? `Reading file ${index}.` : '',
    reasoning: `The next file to read is module ${index}.`,
    calls: [{ id: `call_step_${index}`, name: 'readFile', arguments: { path: `src/module-${index}.ts` } }],
    usage,
  };
}

describe.each([
  ['stored (item references)', {}],
  ['stateless (encrypted reasoning)', { openai: { store: false, include: ['reasoning.encrypted_content'] } }],
])('AI SDK default OpenAI provider through the proxy, %s', (_name, providerOptions) => {
  it('runs a 50-step tool loop with compaction, every upstream request valid', async () => {
    const { proxy, provider } = await rig({ script: agentScript });
    const model = createOpenAI({ apiKey: 'sk-loopback', baseURL: `${proxy.url}/v1` })('gpt-5-mini');
    const task = 'Read src/module-0.ts through src/module-48.ts one by one and check that the values agree.';
    const result = await generateText({
      model,
      system: 'You are a careful coding agent.',
      prompt: task,
      tools: { readFile },
      stopWhen: stepCountIs(50),
      providerOptions,
    });
    expect(result.steps).toHaveLength(50);
    expect(result.text).toContain('All 49 files are read');
    expect(provider.requests).toHaveLength(50);
    const actions = result.steps.map(
      (step) => parseCondenseHeader(step.response.headers?.['x-condense'] ?? '').action,
    );
    expect(actions.filter((action) => action === 'compacted').length).toBeGreaterThanOrEqual(1);
    expect(actions.filter((action) => action === 'reused').length).toBeGreaterThanOrEqual(1);
    for (const [index, request] of provider.requests.entries()) {
      expect(request.path).toBe('/v1/responses');
      const body = request.body as ResponsesBody;
      expect(verifyResponsesInput(body.input), `request ${index}`).toEqual([]);
      const transcript = getCodec('openai-responses').decode(body).value;
      expect(verifyTranscript(transcript, { provider: 'openai' }), `request ${index}`).toEqual([]);
      expect(JSON.stringify(body.input)).toContain(task);
      if (index > 0) {
        // The newest tool output always reaches the model.
        expect(body.input.at(-1)).toMatchObject({
          type: 'function_call_output',
          call_id: `call_step_${index - 1}`,
        });
      }
    }
    const last = provider.requests.at(-1)?.body as ResponsesBody;
    const full = 2 + 2 * 49;
    expect(last.input.length).toBeLessThan(full);
    // Reasoning items reach the upstream exactly as the client sent them, every time they are sent.
    const reasoning = new Map<string, string>();
    for (const request of provider.requests) {
      for (const item of (request.body as ResponsesBody).input as { type?: string; id?: string }[]) {
        if (item.type !== 'reasoning' || item.id === undefined) continue;
        const text = JSON.stringify(item);
        expect(reasoning.get(item.id) ?? text).toBe(text);
        reasoning.set(item.id, text);
      }
    }
    if ('openai' in providerOptions) {
      expect(reasoning.size).toBeGreaterThan(0);
      expect([...reasoning.values()].every((text) => text.includes('loopback-encrypted-'))).toBe(true);
    }
  });
});
