import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRoughCounter } from '../../tokens/rough-counter.js';
import { startCompactionPool } from './compaction-pool.js';
import { type CompactionRunner, inProcessRunner } from './compaction-runner.js';
import type { StepOutcome } from './compaction-step.js';
import {
  CONDENSE_HEADER,
  CONVERSATION_HEADER,
  type CondenseHeader,
  formatCondenseHeader,
} from './condense-header.js';
import { trackConnections } from './drain.js';
import { clientResponseHeaders, pipeBody, upstreamRequestHeaders } from './forward.js';
import { type ProxyOptions, type ResolvedProxyOptions, resolveProxyOptions } from './options.js';
import { adapterFor } from './protocol-adapter.js';
import { providerErrorBody } from './provider-errors.js';
import { readBody } from './read-body.js';
import { type ProxyProtocol, pathOf, protocolOf, upstreamUrl } from './routes.js';
import { fetchUpstreamClient, nodeUpstreamClient, type UpstreamClient } from './upstream-client.js';
import { usageReaderFor } from './usage-reader.js';

/** A listening proxy. */
export interface RunningProxy {
  /** `http://host:port` to point clients at (add `/v1` for OpenAI SDKs). */
  readonly url: string;
  readonly port: number;
  /** Stops accepting requests, lets the ones in flight finish (a few seconds at most), then closes. */
  close(): Promise<void>;
}

/** How long `close` waits for requests in flight before cutting their connections. */
const CLOSE_GRACE_MS = 3_000;

interface Proxy {
  readonly options: ResolvedProxyOptions;
  readonly runner: CompactionRunner;
  readonly client: UpstreamClient;
}

/**
 * Starts the HTTP sidecar: OpenAI `POST …/chat/completions`, OpenAI Responses `POST …/responses` and Anthropic
 * `POST /v1/messages` requests are compacted when their conversation crosses the engine's threshold (each stretch
 * of history summarized once, then reused), on worker threads when the engine allows it; everything else is
 * streamed through untouched, whatever its size, and answers stream back chunk by chunk with an `x-condense`
 * header saying what was done. Listens on 127.0.0.1:8787 unless told otherwise.
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const counter = options.counter ?? createRoughCounter();
  const resolved = resolveProxyOptions(options, counter);
  const runner =
    resolved.compactionThreads > 0 && resolved.recipe !== undefined
      ? await startCompactionPool({
          size: resolved.compactionThreads,
          recipe: resolved.recipe,
          capacity: resolved.maxConversations,
        })
      : inProcessRunner(resolved.maxConversations, resolved.newEngine, counter);
  const client = resolved.fetch === undefined ? nodeUpstreamClient() : fetchUpstreamClient(resolved.fetch);
  const proxy: Proxy = { options: resolved, runner, client };
  const server = createServer((request, response) => {
    void handle(proxy, request, response);
  });
  const closeGracefully = trackConnections(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(resolved.port, resolved.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await runner.close();
    client.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      await closeGracefully(CLOSE_GRACE_MS);
      await runner.close();
      client.close();
    },
  };
}

async function handle(proxy: Proxy, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const started = performance.now();
  const method = request.method ?? 'GET';
  const target = request.url ?? '/';
  const protocol = protocolOf(method, pathOf(target));
  const controller = new AbortController();
  // The client went away before the answer ended: stop the upstream call (and any compaction) too.
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  let header: CondenseHeader = { action: 'passthrough', fields: [['reason', 'route']] };
  let error: string | undefined;
  try {
    const outcome = await prepareBody(proxy, request, response, protocol, controller.signal);
    if (outcome === undefined) {
      header = { action: 'error', fields: [['reason', 'body-too-large']] };
      return;
    }
    if (outcome === 'closed') return;
    if (outcome.kind === 'step') {
      header = outcome.step.header;
      error = outcome.step.error;
    }
    const body = outcome.kind === 'step' ? outcome.step.body : outcome.body;
    const result = await forward(proxy, request, response, {
      protocol,
      body,
      header,
      signal: controller.signal,
    });
    if (result.kind === 'unreachable') {
      header = { action: 'error', fields: [['reason', 'upstream-unreachable']] };
      error = result.reason;
      return;
    }
    const key = outcome.kind === 'step' ? outcome.step.conversationKey : undefined;
    if (key !== undefined && result.promptTokens !== undefined) proxy.runner.usage(key, result.promptTokens);
  } catch (caught) {
    error ??= (caught as Error).name;
    if (!response.headersSent && !controller.signal.aborted) {
      sendError(response, 500, protocol, 'proxy_error', 'the proxy failed on this request', header);
    } else response.destroy();
  } finally {
    proxy.options.onEvent?.({
      method,
      path: pathOf(target),
      status: response.headersSent ? response.statusCode : 0,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      action: header.action,
      detail: formatCondenseHeader(header),
      ...(error === undefined ? {} : { error }),
    });
  }
}

type Prepared =
  /** A passthrough route: the client's own body stream (never buffered), or none. */
  | { readonly kind: 'raw'; readonly body: IncomingMessage | undefined }
  | { readonly kind: 'step'; readonly step: StepOutcome };

/** Reads a compactable request's body (bounded) and runs the compaction step. `undefined` after a 413. */
async function prepareBody(
  proxy: Proxy,
  request: IncomingMessage,
  response: ServerResponse,
  protocol: ProxyProtocol | undefined,
  signal: AbortSignal,
): Promise<Prepared | 'closed' | undefined> {
  const method = request.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return { kind: 'raw', body: undefined };
  if (protocol === undefined) return { kind: 'raw', body: request };
  const read = await readBody(request, proxy.options.maxBodyBytes);
  if (read.kind === 'closed') return 'closed';
  if (read.kind === 'too-large') {
    const limit = proxy.options.maxBodyBytes;
    sendError(response, 413, protocol, 'request_too_large', `request body over ${limit} bytes`, {
      action: 'error',
      fields: [['reason', 'body-too-large']],
    });
    return undefined;
  }
  const conversationHeader = headerValue(request, CONVERSATION_HEADER);
  const step = await proxy.runner.step({ protocol, bytes: read.bytes, conversationHeader }, signal);
  return { kind: 'step', step };
}

interface Forwarding {
  readonly protocol: ProxyProtocol | undefined;
  readonly body: Buffer | IncomingMessage | undefined;
  readonly header: CondenseHeader;
  readonly signal: AbortSignal;
}

type Forwarded =
  | { readonly kind: 'unreachable'; readonly reason: string }
  /** `promptTokens`: the prompt size the answer reported (JSON or event stream), if any. */
  | { readonly kind: 'answered'; readonly promptTokens?: number };

/** Sends the request upstream and streams the answer back (a 502 when the upstream cannot be reached). */
async function forward(
  proxy: Proxy,
  request: IncomingMessage,
  response: ServerResponse,
  forwarding: Forwarding,
): Promise<Forwarded> {
  const url = upstreamUrl(proxy.options.upstream, request.url ?? '/');
  const headers = upstreamRequestHeaders(request.headers, [CONVERSATION_HEADER]);
  const length = request.headers['content-length'];
  // A streamed body is the client's bytes unchanged: its declared length still holds.
  if (forwarding.body !== undefined && !Buffer.isBuffer(forwarding.body) && length !== undefined) {
    headers['content-length'] = length;
  }
  let upstream: Awaited<ReturnType<UpstreamClient['send']>>;
  try {
    upstream = await proxy.client.send({
      url,
      method: request.method ?? 'GET',
      headers,
      body: forwarding.body,
      signal: forwarding.signal,
    });
  } catch (caught) {
    if (forwarding.signal.aborted) return { kind: 'answered' };
    const reason = describeFailure(caught);
    const header: CondenseHeader = { action: 'error', fields: [['reason', 'upstream-unreachable']] };
    if (response.headersSent) response.destroy();
    else
      sendError(
        response,
        502,
        forwarding.protocol,
        'upstream_unreachable',
        `upstream unreachable (${reason})`,
        header,
      );
    return { kind: 'unreachable', reason };
  }
  response.writeHead(upstream.status, {
    ...clientResponseHeaders(upstream.headers),
    [CONDENSE_HEADER]: formatCondenseHeader(forwarding.header),
  });
  response.flushHeaders();
  const contentType = upstream.headers['content-type'];
  const usage =
    forwarding.protocol === undefined || upstream.status < 200 || upstream.status >= 300
      ? undefined
      : usageReaderFor(typeof contentType === 'string' ? contentType : '', adapterFor(forwarding.protocol));
  const complete = await pipeBody(
    upstream.body,
    response,
    usage === undefined ? undefined : (chunk) => usage.push(chunk),
  );
  const promptTokens = complete ? usage?.promptTokens() : undefined;
  return promptTokens === undefined ? { kind: 'answered' } : { kind: 'answered', promptTokens };
}

function sendError(
  response: ServerResponse,
  status: number,
  protocol: ProxyProtocol | undefined,
  type: string,
  message: string,
  header: CondenseHeader,
): void {
  const text = providerErrorBody(protocol, type, message);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    [CONDENSE_HEADER]: formatCondenseHeader(header),
    // A body cut short stays unread on the socket: the connection cannot be reused.
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  response.end(text);
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The network-level reason of a failed upstream call (`ECONNREFUSED`…), never a URL with credentials. */
function describeFailure(caught: unknown): string {
  const own = (caught as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const cause = (caught as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : (caught as Error).name;
}
