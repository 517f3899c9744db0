import { afterEach, describe, expect, it } from 'vitest';
import { getCodec } from '../../../src/codecs/registry.js';
import { createEngine } from '../../../src/engines/registry.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import { parseCondenseHeader } from '../../../src/node.js';
import { createModelSummarizer } from '../../../src/summarizer/model/model-summarizer.js';
import { type LoopbackProvider, loopbackReplies, startLoopbackProvider } from '../../../src/testing.js';
import { createRoughCounter } from '../../../src/tokens/rough-counter.js';
import { realisticCheckpoint } from '../../support/checkpoints.js';
import { anthropicRequest, openaiRequest, postJson, type Rig, SMALL_WINDOW, startRig } from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rig(options: Parameters<typeof startRig>[0] = {}): Promise<Rig> {
  const started = await startRig(options);
  cleanups.push(started.stop);
  return started;
}

const counter = createRoughCounter();
function tokensOf(format: 'openai' | 'anthropic', body: unknown): number {
  return counter.countTranscript(getCodec(format).decode(body).value);
}

type Body = { messages: unknown[] } & Record<string, unknown>;

describe('condense proxy: compaction', () => {
  it('compacts a long OpenAI conversation: fewer tokens, same latest request, valid pairs, other fields untouched', async () => {
    const { proxy, provider } = await rig();
    const tools = [{ type: 'function', function: { name: 'Read', parameters: { type: 'object' } } }];
    const request = openaiRequest(120, { tools, temperature: 0.2, stream: false, user: 'u-1' });
    const response = await postJson(`${proxy.url}/v1/chat/completions`, request);
    expect(response.status).toBe(200);
    const header = parseCondenseHeader(response.headers.get('x-condense') ?? '');
    expect(header.action).toBe('compacted');
    expect(header.fields).toMatchObject({ engine: 'compressor', summary: 'extractive' });
    const [before, after] = (header.fields['tokens'] ?? '').split('->').map(Number);
    expect(after).toBeLessThan(before ?? 0);
    const sent = provider.requests[0]?.body as Body;
    expect(tokensOf('openai', sent)).toBeLessThan(tokensOf('openai', request));
    expect(sent.messages.length).toBeLessThan(request.messages.length);
    expect(sent.messages.at(-1)).toEqual(request.messages.at(-1));
    expect(verifyTranscript(getCodec('openai').decode(sent).value, { provider: 'openai' })).toEqual([]);
    const { messages: _sentMessages, ...sentRest } = sent;
    const { messages: _messages, ...rest } = request;
    expect(sentRest).toEqual(rest);
  });

  it('compacts a long Anthropic conversation and keeps it valid for Anthropic', async () => {
    const { proxy, provider } = await rig();
    const request = anthropicRequest(120, { temperature: 0, metadata: { user_id: 'x' } });
    const response = await postJson(`${proxy.url}/v1/messages`, request, { 'x-api-key': 'sk-ant' });
    expect(response.status).toBe(200);
    expect(parseCondenseHeader(response.headers.get('x-condense') ?? '').action).toBe('compacted');
    const sent = provider.requests[0]?.body as Body;
    expect(tokensOf('anthropic', sent)).toBeLessThan(tokensOf('anthropic', request));
    expect(sent.messages.at(-1)).toEqual(request.messages.at(-1));
    expect(sent['system']).toEqual(request['system']);
    expect(sent).toMatchObject({
      model: 'claude-test',
      max_tokens: 1024,
      temperature: 0,
      metadata: { user_id: 'x' },
    });
    expect(verifyTranscript(getCodec('anthropic').decode(sent).value, { provider: 'anthropic' })).toEqual([]);
  });

  it('compacts with the rules engine when asked', async () => {
    const { proxy, provider } = await rig({
      proxy: { engine: 'rules', engineOptions: { contextLength: SMALL_WINDOW } },
    });
    // Long tool outputs: what the rules engine truncates and collapses.
    const output = Array.from(
      { length: 60 },
      (_, line) => `src/file-${line}.ts: line ${line} of the listing`,
    ).join('\n');
    const base = openaiRequest(40);
    const messages = base.messages.map((message) =>
      (message as { role: string }).role === 'tool' ? { ...(message as object), content: output } : message,
    );
    const request = { ...base, messages };
    const response = await postJson(`${proxy.url}/v1/chat/completions`, request);
    const header = parseCondenseHeader(response.headers.get('x-condense') ?? '');
    expect(header).toMatchObject({ action: 'compacted', fields: { engine: 'rules', summary: 'none' } });
    const sent = provider.requests[0]?.body as Body;
    expect(sent.messages.at(-1)).toEqual(request.messages.at(-1));
    expect(verifyTranscript(getCodec('openai').decode(sent).value, { provider: 'openai' })).toEqual([]);
  });

  it('compacts 12 concurrent conversations independently', async () => {
    const { proxy, provider } = await rig();
    const requests = Array.from({ length: 12 }, (_, index) =>
      openaiRequest(120, { model: `gpt-${index}` }, `Task number ${index}: fix handler ${index}.`),
    );
    const responses = await Promise.all(
      requests.map((request) => postJson(`${proxy.url}/v1/chat/completions`, request)),
    );
    const headers = responses.map((response) =>
      parseCondenseHeader(response.headers.get('x-condense') ?? ''),
    );
    expect(headers.every((header) => header.action === 'compacted')).toBe(true);
    expect(new Set(headers.map((header) => header.fields['conversation'])).size).toBe(12);
    for (const request of requests) {
      const sent = provider.requests.find((received) => received.model === request.model)?.body as Body;
      const text = JSON.stringify(sent.messages);
      expect(text).toContain(`Task number ${request.model.slice(4)}:`);
      for (const other of requests)
        if (other !== request) expect(text).not.toContain(`Task number ${other.model.slice(4)}:`);
      expect(verifyTranscript(getCodec('openai').decode(sent).value, { provider: 'openai' })).toEqual([]);
    }
  });

  it('feeds the usage of non-streaming answers to the conversation engine', async () => {
    const seen: number[] = [];
    const engine = recordingUsage('compressor', seen);
    const { proxy } = await rig({
      script: () => loopbackReplies.text('ok', { input: 4321, output: 2 }),
      proxy: { engine },
    });
    await (await postJson(`${proxy.url}/v1/chat/completions`, openaiRequest(3))).text();
    await (await postJson(`${proxy.url}/v1/messages`, anthropicRequest(3))).text();
    expect(seen).toEqual([4321, 4321]);
  });

  it('feeds the usage that streamed answers report in their events', async () => {
    const seen: number[] = [];
    const engine = recordingUsage('rules', seen);
    const { proxy } = await rig({
      script: () => loopbackReplies.text('a streamed answer', { input: 5678, output: 4 }),
      proxy: { engine },
    });
    const openai = await postJson(
      `${proxy.url}/v1/chat/completions`,
      openaiRequest(3, { stream: true, stream_options: { include_usage: true } }),
    );
    expect(await openai.text()).toContain('data: [DONE]');
    const anthropic = await postJson(`${proxy.url}/v1/messages`, anthropicRequest(3, { stream: true }));
    expect(await anthropic.text()).toContain('message_stop');
    expect(seen).toEqual([5678, 5678]);
  });
});

describe('condense proxy: checkpoint memory', () => {
  let summaries: LoopbackProvider | undefined;
  afterEach(async () => {
    await summaries?.close();
    summaries = undefined;
  });

  it('summarizes a stretch of history once and reuses it while the conversation grows', async () => {
    summaries = await startLoopbackProvider({
      script: () => loopbackReplies.text(realisticCheckpoint('fix the handler tests', 'all tests pass')),
    });
    const model = createModelSummarizer({
      model: 'openai-compatible:summary',
      baseUrl: `${summaries.url}/v1`,
    });
    const { proxy, provider } = await rig({
      proxy: { engineOptions: { contextLength: SMALL_WINDOW, model } },
    });
    const first = openaiRequest(120);
    const one = await postJson(`${proxy.url}/v1/chat/completions`, first);
    expect(parseCondenseHeader(one.headers.get('x-condense') ?? '')).toMatchObject({
      action: 'compacted',
      fields: { summary: 'model' },
    });
    const grown = {
      ...first,
      messages: [
        ...first.messages,
        { role: 'assistant', content: 'Added the changelog entry.' },
        { role: 'user', content: 'Great, now bump the version.' },
      ],
    };
    const two = await postJson(`${proxy.url}/v1/chat/completions`, grown);
    const header = parseCondenseHeader(two.headers.get('x-condense') ?? '');
    expect(header.action).toBe('reused');
    expect(header.fields['messages']).toMatch(new RegExp(`^${grown.messages.length}->`));
    expect(summaries.requests).toHaveLength(1);
    const sentOne = provider.requests[0]?.body as Body;
    const sentTwo = provider.requests[1]?.body as Body;
    // The compacted prefix is sent again exactly, so the provider's prompt cache stays warm.
    expect(sentTwo.messages.slice(0, sentOne.messages.length)).toEqual(sentOne.messages);
    expect(sentTwo.messages.slice(sentOne.messages.length)).toEqual(
      grown.messages.slice(first.messages.length),
    );
  });

  it('compacts again only when the spliced prompt crosses the threshold, and says what it reused', async () => {
    const { proxy, provider } = await rig();
    const first = openaiRequest(120);
    await (await postJson(`${proxy.url}/v1/chat/completions`, first)).text();
    const more = openaiRequest(240).messages.slice(first.messages.length - 2);
    const grown = {
      ...first,
      messages: [...first.messages, { role: 'assistant', content: 'Done.' }, ...more],
    };
    const response = await postJson(`${proxy.url}/v1/chat/completions`, grown);
    const header = parseCondenseHeader(response.headers.get('x-condense') ?? '');
    expect(header.action).toBe('compacted');
    expect(header.fields['reused']).toBe(String(first.messages.length));
    const sent = provider.requests[1]?.body as Body;
    expect(sent.messages.at(-1)).toEqual(grown.messages.at(-1));
    expect(verifyTranscript(getCodec('openai').decode(sent).value, { provider: 'openai' })).toEqual([]);
  });

  it('starts afresh when the history no longer starts with the stored prefix', async () => {
    const { proxy } = await rig();
    const first = openaiRequest(120);
    await (await postJson(`${proxy.url}/v1/chat/completions`, first)).text();
    const edited = { ...first, messages: [...first.messages.slice(0, 5), ...first.messages.slice(7)] };
    const response = await postJson(`${proxy.url}/v1/chat/completions`, edited);
    expect(parseCondenseHeader(response.headers.get('x-condense') ?? '').action).toBe('compacted');
    expect(parseCondenseHeader(response.headers.get('x-condense') ?? '').fields['reused']).toBeUndefined();
  });

  it('keys conversations by the x-condense-conversation header when given', async () => {
    const { proxy } = await rig();
    const first = openaiRequest(120);
    const headers = { 'x-condense-conversation': 'session-42' };
    const one = await postJson(`${proxy.url}/v1/chat/completions`, first, headers);
    const renamed = { ...first, model: 'another-model' };
    const two = await postJson(`${proxy.url}/v1/chat/completions`, renamed, headers);
    const idOne = parseCondenseHeader(one.headers.get('x-condense') ?? '').fields['conversation'];
    const parsed = parseCondenseHeader(two.headers.get('x-condense') ?? '');
    expect(parsed.action).toBe('reused');
    expect(parsed.fields['conversation']).toBe(idOne);
  });
});

/** An engine factory whose engines record every prompt size the proxy reports to them in `seen`. */
function recordingUsage(name: 'compressor' | 'rules', seen: number[]) {
  return () => {
    const inner = createEngine(name, { contextLength: SMALL_WINDOW });
    const update = inner.updateFromResponse.bind(inner);
    inner.updateFromResponse = (usage) => {
      seen.push(usage.promptTokens);
      update(usage);
    };
    return inner;
  };
}
