import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoopbackReply } from './loopback-reply.js';
import { responsesBody, responsesEvents, responsesRequestOptions } from './loopback-responses.js';
import {
  anthropicEvents,
  anthropicMessage,
  errorBody,
  type LoopbackProtocol,
  openaiChunks,
  openaiCompletion,
} from './loopback-wire.js';

/** One request the server received, recorded for assertions. Credentials are never recorded. */
export interface LoopbackRequest {
  /** 0-based position among all requests. */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly protocol: LoopbackProtocol | 'unknown';
  /** Lower-cased headers without `authorization`, `x-api-key`, `api-key` and `cookie`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Which credential header the request carried, if any (its value is not kept). */
  readonly credential?: 'authorization' | 'x-api-key' | 'api-key';
  /** The parsed JSON body, or the raw text when it is not JSON. */
  readonly body: unknown;
  readonly model?: string;
  readonly stream: boolean;
}

/** The script: replies in order, or a function choosing one per request. */
export type LoopbackScript =
  | readonly LoopbackReply[]
  | ((request: LoopbackRequest, index: number) => LoopbackReply | Promise<LoopbackReply>);

/** Options of {@link startLoopbackProvider}. */
export interface LoopbackOptions {
  /** What to answer; once an array script runs out, requests get a 500 saying so. */
  readonly script: LoopbackScript;
}

/** A running loopback provider. */
export interface LoopbackProvider {
  /** `http://127.0.0.1:<port>`; point clients at `${url}/v1`. */
  readonly url: string;
  /** Every request received so far, in order. */
  readonly requests: readonly LoopbackRequest[];
  /** Stops the server and drops open connections (hanging replies included). */
  close(): Promise<void>;
}

const SECRET_HEADERS = ['authorization', 'x-api-key', 'api-key', 'cookie'] as const;

function protocolOf(path: string): LoopbackProtocol | 'unknown' {
  if (/^(?:\/v1)?\/chat\/completions\/?$/.test(path)) return 'openai';
  if (/^(?:\/v1)?\/messages\/?$/.test(path)) return 'anthropic';
  if (/^(?:\/v1)?\/responses\/?$/.test(path)) return 'openai-responses';
  return 'unknown';
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function record(request: IncomingMessage, raw: string, index: number): LoopbackRequest {
  const headers: Record<string, string> = {};
  let credential: LoopbackRequest['credential'];
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if ((SECRET_HEADERS as readonly string[]).includes(name)) {
      if (name !== 'cookie') credential ??= name as LoopbackRequest['credential'];
      continue;
    }
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  let body: unknown = raw;
  try {
    body = raw === '' ? undefined : JSON.parse(raw);
  } catch {
    body = raw;
  }
  const object = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  return {
    index,
    method: request.method ?? 'GET',
    path,
    protocol: protocolOf(path),
    headers,
    ...(credential === undefined ? {} : { credential }),
    body,
    ...(typeof object['model'] === 'string' ? { model: object['model'] } : {}),
    stream: object['stream'] === true,
  };
}

function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function sse(
  recorded: LoopbackRequest,
  protocol: LoopbackProtocol,
  reply: LoopbackReply,
  model: string,
  id: string,
): string[] {
  const success = reply as Parameters<typeof openaiChunks>[0];
  if (protocol === 'openai-responses') {
    return responsesEvents(success, model, id, responsesRequestOptions(recorded.body)).map(
      ([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
    );
  }
  if (protocol === 'openai') {
    return [
      ...openaiChunks(success, model, id).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`),
      'data: [DONE]\n\n',
    ];
  }
  return anthropicEvents(success, model, id).map(
    ([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
  );
}

function successBody(
  recorded: LoopbackRequest,
  protocol: LoopbackProtocol,
  reply: LoopbackReply,
  model: string,
  id: string,
): unknown {
  const success = reply as Parameters<typeof openaiCompletion>[0];
  if (protocol === 'openai-responses')
    return responsesBody(success, model, id, responsesRequestOptions(recorded.body));
  return protocol === 'openai' ? openaiCompletion(success, model, id) : anthropicMessage(success, model, id);
}

function startStream(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

function answer(response: ServerResponse, recorded: LoopbackRequest, reply: LoopbackReply): void {
  const protocol = recorded.protocol === 'unknown' ? 'openai' : recorded.protocol;
  const model = recorded.model ?? 'loopback-model';
  const id =
    protocol === 'openai'
      ? `chatcmpl-loopback-${recorded.index}`
      : protocol === 'anthropic'
        ? `msg_loopback_${recorded.index}`
        : `loopback_${recorded.index}`;
  switch (reply.kind) {
    case 'hang':
      return;
    case 'error': {
      const headers: Record<string, string> =
        reply.retryAfter === undefined ? {} : { 'retry-after': String(reply.retryAfter) };
      sendJson(response, reply.status, errorBody(protocol, reply.status, reply.message, reply.code), headers);
      return;
    }
    case 'malformed': {
      const text = reply.body ?? '{"id": "broken", "choices": [ {"message": ';
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      response.end(text);
      return;
    }
    case 'cut': {
      const full = { text: reply.text ?? 'This answer is cut off before it ends.' };
      if (recorded.stream) {
        startStream(response);
        const events = sse(recorded, protocol, full, model, id);
        for (const event of events.slice(0, Math.max(1, Math.floor(events.length / 2))))
          response.write(event);
      } else {
        const text = JSON.stringify(successBody(recorded, protocol, full, model, id));
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        response.write(text.slice(0, Math.floor(text.length / 2)));
      }
      // Let the written bytes leave before the connection drops, as a proxy timing out mid-answer would.
      setTimeout(() => response.destroy(), 20);
      return;
    }
    case undefined:
    case 'text':
    case 'tool-calls':
    case 'empty':
      if (recorded.stream) {
        startStream(response);
        for (const event of sse(recorded, protocol, reply, model, id)) response.write(event);
        response.end();
      } else sendJson(response, 200, successBody(recorded, protocol, reply, model, id));
  }
}

/**
 * Starts a real HTTP server on 127.0.0.1 (random port) that speaks OpenAI `POST /v1/chat/completions`, OpenAI
 * `POST /v1/responses` (the Responses API, which the AI SDK's default `openai(…)` provider uses) and Anthropic
 * `POST /v1/messages`, JSON and SSE streaming, with scripted replies and faults (error statuses with
 * provider-shaped bodies, `retry-after`, delays, malformed bodies, connections cut mid-answer, empty content,
 * no answer at all). Every request is recorded without its credentials. Other paths get a 404.
 */
export async function startLoopbackProvider(options: LoopbackOptions): Promise<LoopbackProvider> {
  const requests: LoopbackRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let next = 0;
  const choose = async (recorded: LoopbackRequest): Promise<LoopbackReply> => {
    const script = options.script;
    if (typeof script === 'function') return script(recorded, recorded.index);
    const reply = script[next];
    next++;
    return (
      reply ?? {
        kind: 'error',
        status: 500,
        message: `loopback script exhausted at request ${recorded.index}`,
      }
    );
  };
  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const recorded = record(request, raw, requests.length);
      requests.push(recorded);
      if (recorded.protocol === 'unknown' || recorded.method !== 'POST') {
        sendJson(
          response,
          404,
          errorBody('openai', 404, `no route for ${recorded.method} ${recorded.path}`, 'not_found'),
        );
        return;
      }
      const reply = await choose(recorded);
      const delay = reply.kind === 'hang' ? 0 : (reply.delayMs ?? 0);
      if (delay <= 0) {
        answer(response, recorded, reply);
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!response.destroyed) answer(response, recorded, reply);
      }, delay);
      timers.add(timer);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
