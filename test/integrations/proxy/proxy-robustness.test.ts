import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getCodec } from '../../../src/codecs/registry.js';
import { createEngine } from '../../../src/engines/registry.js';
import {
  type ProxyEvent,
  type ProxyOptions,
  parseCondenseHeader,
  type RunningProxy,
  startProxy,
} from '../../../src/node.js';
import { buildCodingSession } from '../../../src/testing/transcript-builders.js';
import { loopbackReplies, startLoopbackProvider } from '../../../src/testing.js';
import {
  openaiRequest,
  postJson,
  type RecordingUpstream,
  SMALL_WINDOW,
  startRecordingUpstream,
} from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function proxyTo(upstream: string, options: Partial<ProxyOptions> = {}): Promise<RunningProxy> {
  const proxy = await startProxy({
    upstream,
    port: 0,
    engineOptions: { contextLength: SMALL_WINDOW },
    ...options,
  } as ProxyOptions);
  cleanups.push(() => proxy.close());
  return proxy;
}

async function recording(answer?: Parameters<typeof startRecordingUpstream>[0]): Promise<RecordingUpstream> {
  const upstream = await startRecordingUpstream(answer);
  cleanups.push(() => upstream.close());
  return upstream;
}

/** Sends a raw request with exactly the given headers (no client of its own adding any). */
function rawPost(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.length) },
    });
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('condense proxy: robustness', () => {
  it("compacts on worker threads: a huge prompt does not hold up other conversations' small requests", async () => {
    const provider = await startLoopbackProvider({ script: () => loopbackReplies.text('ok') });
    cleanups.push(() => provider.close());
    const proxy = await proxyTo(`${provider.url}/v1`, { compactionThreads: 2 });
    const huge = openaiRequest(2_000, {}, 'Port the whole service to the new framework.');
    expect(JSON.stringify(huge).length).toBeGreaterThan(400_000);
    const big = postJson(`${proxy.url}/v1/chat/completions`, huge);
    // Let the big body reach the proxy first.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const small = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        postJson(`${proxy.url}/v1/chat/completions`, openaiRequest(2, {}, `Small task number ${index}.`)),
      ),
    );
    expect(small.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const answeredBeforeBig = provider.requests.length;
    const bigResponse = await big;
    expect(parseCondenseHeader(bigResponse.headers.get('x-condense') ?? '').action).toBe('compacted');
    // Every small request went upstream and back while the big one was still being compacted.
    expect(answeredBeforeBig).toBe(4);
    expect(provider.requests.at(-1)?.body).toMatchObject({ model: 'gpt-test' });
  });

  it('sends a request again when its kept-alive connection turns out closed by the upstream, instead of a 502', async () => {
    const served = new WeakMap<Socket, number>();
    let resets = 0;
    const upstream = createServer((request, response) => {
      const count = served.get(request.socket) ?? 0;
      served.set(request.socket, count + 1);
      if (count >= 1) {
        // The upstream had closed this idle connection: the request dies on it, unanswered.
        resets++;
        request.socket.destroy();
        return;
      }
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' });
        response.end('{"usage":{"prompt_tokens":3}}');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          upstream.closeAllConnections();
          upstream.close(() => resolve());
        }),
    );
    const proxy = await proxyTo(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`);
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await postJson(`${proxy.url}/v1/chat/completions`, openaiRequest(2));
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(resets).toBe(2);
  });

  it('forwards JSON nested 5,000 levels deep untouched and says why it did not read it', async () => {
    const upstream = await recording();
    const events: ProxyEvent[] = [];
    const proxy = await proxyTo(upstream.url, { onEvent: (event) => events.push(event) });
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const body = Buffer.from(`{"model":"m","messages":[{"role":"user","content":"hi","extra":${deep}}]}`);
    const response = await rawPost(`${proxy.url}/v1/chat/completions`, body, {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(200);
    expect(parseCondenseHeader(String(response.headers['x-condense']))).toMatchObject({
      action: 'passthrough',
      fields: { reason: 'too-deep' },
    });
    expect(upstream.requests[0]?.body.equals(body)).toBe(true);
    expect(events[0]).toMatchObject({ status: 200, action: 'passthrough' });
  });

  it('streams a passthrough upload far over the body limit (a file upload), byte for byte', async () => {
    const upstream = await recording();
    const proxy = await proxyTo(upstream.url, { maxBodyBytes: 4_096 });
    const upload = Buffer.alloc(3 * 1024 * 1024, 'x');
    const response = await rawPost(`${proxy.url}/v1/files`, upload, {
      'content-type': 'application/octet-stream',
    });
    expect(response.status).toBe(200);
    expect(upstream.requests[0]?.body.length).toBe(upload.length);
    expect(upstream.requests[0]?.headers['content-length']).toBe(String(upload.length));
    // The compactable routes still refuse what they would have to hold in memory.
    const tooBig = await postJson(`${proxy.url}/v1/chat/completions`, openaiRequest(40));
    expect(tooBig.status).toBe(413);
  });

  it('adds no sec-fetch-mode, accept-language or user-agent of its own to upstream requests', async () => {
    const upstream = await recording();
    const proxy = await proxyTo(upstream.url);
    const transcript = buildCodingSession({ steps: 2 });
    const body = Buffer.from(
      JSON.stringify({ model: 'm', ...(getCodec('openai').encode(transcript) as object) }),
    );
    await rawPost(`${proxy.url}/v1/chat/completions`, body, {
      'content-type': 'application/json',
      authorization: 'Bearer k',
    });
    await rawPost(`${proxy.url}/v1/models`, Buffer.from(''), { authorization: 'Bearer k' });
    for (const request of upstream.requests) {
      expect(request.headers['sec-fetch-mode']).toBeUndefined();
      expect(request.headers['accept-language']).toBeUndefined();
      expect(request.headers['user-agent']).toBeUndefined();
      expect(request.headers['authorization']).toBe('Bearer k');
    }
  });
});

describe('condense proxy: compaction threads', () => {
  it('refuses threads for an engine only this thread can make, and runs such engines in-process by default', async () => {
    const engine = () => createEngine('compressor', { contextLength: SMALL_WINDOW });
    await expect(
      startProxy({ upstream: 'http://127.0.0.1:9', port: 0, engine, compactionThreads: 2 }),
    ).rejects.toThrow(/compaction threads need an engine a worker thread can make/);
    const proxy = await startProxy({ upstream: 'http://127.0.0.1:9', port: 0, engine });
    await proxy.close();
  });
});
