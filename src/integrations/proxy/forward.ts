import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus the ones the proxy recomputes
 * or consumes: never forwarded in either direction.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/** The request headers sent upstream: all the client's (credentials included) but hop-by-hop ones. */
export function upstreamRequestHeaders(
  incoming: IncomingHttpHeaders,
  drop: readonly string[],
): Record<string, string> {
  const named = new Set([...HOP_BY_HOP, ...drop, ...connectionTokens(incoming['connection'])]);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || named.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // fetch() would decompress a compressed answer behind our back; asking for none keeps bytes and headers true.
  out['accept-encoding'] = 'identity';
  return out;
}

function connectionTokens(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((token) => token.trim().toLowerCase());
}

/** The upstream's response headers for the client, without hop-by-hop ones and the encoding fetch undid. */
export function clientResponseHeaders(upstream: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  upstream.forEach((value, name) => {
    if (HOP_BY_HOP.has(name) || name === 'content-encoding' || name === 'set-cookie') return;
    out[name] = value;
  });
  const cookies = upstream.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/**
 * Copies the upstream body to the client chunk by chunk as it arrives (server-sent events are never
 * buffered), waiting for the client when it reads slowly. Each chunk is also shown to `observe` (the usage
 * reader). Returns false when the client went away before the end.
 */
export async function pipeBody(
  body: ReadableStream<Uint8Array> | null,
  response: ServerResponse,
  observe?: (chunk: Uint8Array) => void,
): Promise<boolean> {
  if (body === null) {
    response.end();
    return true;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      observe?.(value);
      if (!response.write(value)) await drained(response);
      if (response.destroyed) return false;
    }
  } finally {
    reader.releaseLock();
  }
  response.end();
  return true;
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
