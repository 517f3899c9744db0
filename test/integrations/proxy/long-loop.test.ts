import { afterEach, describe, expect, it } from 'vitest';
import { getCodec } from '../../../src/codecs/registry.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { parseCondenseHeader, type RunningProxy, startProxy } from '../../../src/node.js';
import {
  type LoopbackProvider,
  type LoopbackReply,
  type LoopbackRequest,
  loopbackReplies,
  startLoopbackProvider,
} from '../../../src/testing.js';
import { createRoughCounter } from '../../../src/tokens/rough-counter.js';
import { generatedTable, LONG_LOOP } from '../../support/long-loop.js';
import { postJson } from './support.js';

const { steps: STEPS, window: WINDOW } = LONG_LOOP;
const REQUEST = 'Read every module under src/ and tell me which one parses the config file.';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];

/** A provider that asks for one file read per step, then answers `done`, reporting a plausible prompt size. */
function agentScript(request: LoopbackRequest, index: number): LoopbackReply {
  const usage = { input: Math.ceil(JSON.stringify(request.body).length / 4), output: 20 };
  if (index >= STEPS) return loopbackReplies.text('done', usage);
  const call = { id: `call_${index}`, name: 'read_file', arguments: { path: `src/module-${index}.ts` } };
  return { kind: 'tool-calls', calls: [call], usage };
}

async function start(): Promise<{ provider: LoopbackProvider; proxy: RunningProxy }> {
  const provider = await startLoopbackProvider({ script: agentScript });
  const proxy = await startProxy({
    upstream: `${provider.url}/v1`,
    port: 0,
    engineOptions: { contextLength: WINDOW },
  });
  cleanups.push(
    () => provider.close(),
    () => proxy.close(),
  );
  return { provider, proxy };
}

const counter = createRoughCounter();

describe('condense proxy: a 200-step tool loop with 3k-token outputs in a 16K window', () => {
  it('never forwards a prompt over the window without saying so, and here never over at all', async () => {
    const { provider, proxy } = await start();
    // The client re-sends its whole history every step, as agents do; only the proxy keeps it small.
    const messages: unknown[] = [
      { role: 'system', content: 'You are a careful coding agent.' },
      { role: 'user', content: REQUEST },
    ];
    const headers: ReturnType<typeof parseCondenseHeader>[] = [];
    for (let step = 0; step <= STEPS; step++) {
      const response = await postJson(`${proxy.url}/v1/chat/completions`, {
        model: 'loopback-model',
        messages,
        tools: TOOLS,
      });
      expect(response.status).toBe(200);
      headers.push(parseCondenseHeader(response.headers.get('x-condense') ?? ''));
      const reply = (await response.json()) as { choices: { message: Record<string, unknown> }[] };
      const message = reply.choices[0]?.message as {
        tool_calls?: { id: string; function: { arguments: string } }[];
      };
      messages.push(message);
      for (const call of message.tool_calls ?? []) {
        const { path } = JSON.parse(call.function.arguments) as { path: string };
        messages.push({ role: 'tool', tool_call_id: call.id, content: generatedTable(path) });
      }
    }
    expect((messages.at(-1) as { content: string }).content).toBe('done');
    expect(provider.requests).toHaveLength(STEPS + 1);
    const sizes = provider.requests.map((request, index) => {
      const transcript = getCodec('openai').decode(request.body).value;
      const tokens = counter.countTranscript(transcript);
      const header = headers[index] as ReturnType<typeof parseCondenseHeader>;
      expect(verifyTranscript(transcript, { provider: 'openai' }), `request ${index}`).toEqual([]);
      const users = transcript.messages.filter((message) => message.role === 'user');
      expect(JSON.stringify(users.at(-1)), `request ${index}`).toContain(REQUEST);
      const reportedOver =
        header.fields['over-window'] !== undefined || header.fields['reason'] === 'over-window';
      if (!reportedOver) expect(tokens, `request ${index}: ${header.action}`).toBeLessThanOrEqual(WINDOW);
      return tokens;
    });
    // Nothing here is too big to fit (a 3k output, a short request): no request may even claim to be over.
    expect(headers.filter((header) => header.fields['over-window'] !== undefined)).toEqual([]);
    expect(headers.filter((header) => header.action === 'compacted').length).toBeGreaterThan(10);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WINDOW);
    // The history the client holds is far over the window: the proxy did the work.
    expect(counter.countTranscript(getCodec('openai').decode({ messages }).value)).toBeGreaterThan(
      WINDOW * 30,
    );
  });
});
