import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getCodec } from '../../../src/codecs/registry.js';
import { type ProxyOptions, type RunningProxy, startProxy } from '../../../src/node.js';
import { buildCodingSession } from '../../../src/testing/transcript-builders.js';
import {
  type LoopbackProvider,
  type LoopbackScript,
  loopbackReplies,
  startLoopbackProvider,
} from '../../../src/testing.js';

/** Context length at which a 120-step coding session (~7,200 tokens) crosses the threshold and 30 steps do not. */
export const SMALL_WINDOW = 8_000;

/** Everything started by a test, closed by `stop`. */
export interface Rig {
  readonly provider: LoopbackProvider;
  readonly proxy: RunningProxy;
  stop(): Promise<void>;
}

/** A loopback provider and a proxy in front of it (compressor, small window, answers "ok" by default). */
export async function startRig(
  options: { script?: LoopbackScript; proxy?: Partial<ProxyOptions> } = {},
): Promise<Rig> {
  const provider = await startLoopbackProvider({
    script: options.script ?? (() => loopbackReplies.text('ok', { input: 100, output: 5 })),
  });
  const proxy = await startProxy({
    upstream: `${provider.url}/v1`,
    port: 0,
    engineOptions: { contextLength: SMALL_WINDOW },
    ...options.proxy,
  } as ProxyOptions);
  return {
    provider,
    proxy,
    stop: async () => {
      await proxy.close();
      await provider.close();
    },
  };
}

/** An OpenAI Chat Completions request body holding a coding session of `steps` tool steps. */
export function openaiRequest(steps: number, extra: Record<string, unknown> = {}, task?: string) {
  const transcript = buildCodingSession({ steps, ...(task === undefined ? {} : { task }) });
  const { messages } = getCodec('openai').encode(transcript) as { messages: unknown[] };
  return { model: 'gpt-test', messages, ...extra };
}

/** An Anthropic Messages request body holding a coding session of `steps` tool steps. */
export function anthropicRequest(steps: number, extra: Record<string, unknown> = {}, task?: string) {
  const transcript = buildCodingSession({ steps, ...(task === undefined ? {} : { task }) });
  const wire = getCodec('anthropic').encode(transcript) as { system?: unknown; messages: unknown[] };
  return { model: 'claude-test', max_tokens: 1024, ...wire, ...extra };
}

/** POSTs JSON to the proxy. */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-secret', ...headers },
    body: JSON.stringify(body),
  });
}

/** One request a {@link RecordingUpstream} received: raw bytes and headers. */
export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

/** A tiny upstream that records raw request bytes and lets the test answer by hand. */
export interface RecordingUpstream {
  readonly url: string;
  readonly requests: RawRequest[];
  /** Requests whose connection closed before the answer ended. */
  readonly closedEarly: string[];
  close(): Promise<void>;
}

/** Starts a {@link RecordingUpstream}; `answer` writes the response (default: a small JSON body). */
export async function startRecordingUpstream(
  answer: (request: RawRequest, response: ServerResponse) => void = (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"id":"x","usage":{"prompt_tokens":1}}');
  },
): Promise<RecordingUpstream> {
  const requests: RawRequest[] = [];
  const closedEarly: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw: RawRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(raw);
      response.on('close', () => {
        if (!response.writableFinished) closedEarly.push(raw.url);
      });
      answer(raw, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    closedEarly,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `check` holds (polling), or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
