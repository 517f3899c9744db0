import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** One request to the upstream. */
export interface UpstreamRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body: bytes held in memory (a compactable request, which can be sent again), a stream read once (a
   * passthrough route, never buffered), or none.
   */
  readonly body: Buffer | Readable | undefined;
  readonly signal: AbortSignal;
}

/** The upstream's answer: status, headers as received (names lower-cased) and the body as it arrives. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: AsyncIterable<Uint8Array>;
}

/** How the proxy talks to its upstream. */
export interface UpstreamClient {
  /** Sends a request; rejects when no answer could be had (refused, reset, aborted). */
  send(request: UpstreamRequest): Promise<UpstreamAnswer>;
  /** Closes idle keep-alive connections. */
  close(): void;
}

/**
 * The default client, on `node:http`/`node:https` with keep-alive agents: headers go out exactly as given (no
 * `sec-fetch-mode`, `accept-language` or `user-agent` of its own, unlike `fetch`), bodies stream both ways, and a
 * request whose reused keep-alive connection turns out closed by the upstream before any answer is sent once more
 * on a fresh connection, when its body is in memory.
 */
export function nodeUpstreamClient(): UpstreamClient {
  const agents = {
    http: new HttpAgent({ keepAlive: true }),
    https: new HttpsAgent({ keepAlive: true }),
  };
  const send = (request: UpstreamRequest, retried: boolean): Promise<UpstreamAnswer> =>
    new Promise((resolve, reject) => {
      const https = request.url.protocol === 'https:';
      const body = request.body;
      const headers: Record<string, string> = { ...request.headers };
      if (Buffer.isBuffer(body)) headers['content-length'] = String(body.length);
      const outgoing = (https ? httpsRequest : httpRequest)(request.url, {
        method: request.method,
        headers,
        agent: https ? agents.https : agents.http,
      });
      let answered = false;
      const abort = (): void => {
        outgoing.destroy(
          request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'),
        );
      };
      if (request.signal.aborted) abort();
      else request.signal.addEventListener('abort', abort, { once: true });
      outgoing.on('response', (incoming: IncomingMessage) => {
        answered = true;
        request.signal.removeEventListener('abort', abort);
        resolve(answerOf(incoming, request.signal));
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        request.signal.removeEventListener('abort', abort);
        if (answered) return;
        // The connection came from the pool and the upstream had closed it meanwhile: nothing reached it.
        const stale =
          outgoing.reusedSocket && !retried && !request.signal.aborted && STALE_CODES.has(error.code ?? '');
        if (stale && (body === undefined || Buffer.isBuffer(body))) {
          send(request, true).then(resolve, reject);
          return;
        }
        reject(error);
      });
      if (body === undefined) outgoing.end();
      else if (Buffer.isBuffer(body)) outgoing.end(body);
      else {
        body.on('error', (error) => outgoing.destroy(error));
        body.pipe(outgoing);
      }
    });
  return {
    send: (request) => send(request, false),
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

const STALE_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function answerOf(incoming: IncomingMessage, signal: AbortSignal): UpstreamAnswer {
  const headers: Record<string, string | readonly string[]> = {};
  for (const [name, value] of Object.entries(incoming.headers))
    if (value !== undefined) headers[name] = value;
  signal.addEventListener('abort', () => incoming.destroy(), { once: true });
  return { status: incoming.statusCode ?? 502, headers, body: incoming };
}

/**
 * A client over an injected `fetch` (instrumentation, custom transports). A streamed body goes out as a web
 * stream; the answer's headers are read from the `Headers` object (cookies kept apart).
 */
export function fetchUpstreamClient(fetchImpl: typeof fetch): UpstreamClient {
  return {
    send: async (request) => {
      const body = request.body;
      const init: RequestInit & { duplex?: 'half' } = {
        method: request.method,
        headers: request.headers,
        signal: request.signal,
        redirect: 'manual',
      };
      if (Buffer.isBuffer(body)) init.body = body;
      else if (body !== undefined) {
        init.body = Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>;
        init.duplex = 'half';
      }
      const response = await fetchImpl(request.url, init);
      const headers: Record<string, string | readonly string[]> = {};
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie') headers[name] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) headers['set-cookie'] = cookies;
      // fetch decoded any compressed body: its encoding and length no longer describe the bytes.
      delete headers['content-encoding'];
      return { status: response.status, headers, body: iterate(response.body) };
    },
    close: () => undefined,
  };
}

async function* iterate(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
