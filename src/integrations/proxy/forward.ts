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
  // The usage reader reads answers as they pass: asking for no compression keeps them readable.
  out['accept-encoding'] = 'identity';
  return out;
}

function connectionTokens(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(',').map((token) => token.trim().toLowerCase());
}

/** The upstream's response headers for the client, without hop-by-hop ones. */
export function clientResponseHeaders(
  upstream: Readonly<Record<string, string | readonly string[]>>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (HOP_BY_HOP.has(name)) continue;
    out[name] = typeof value === 'string' ? value : [...value];
  }
  return out;
}

/**
 * Copies the upstream body to the client chunk by chunk as it arrives (server-sent events are never
 * buffered), waiting for the client when it reads slowly. Each chunk is also shown to `observe` (the usage
 * reader). Returns false when the client went away before the end.
 */
export async function pipeBody(
  body: AsyncIterable<Uint8Array>,
  response: ServerResponse,
  observe?: (chunk: Uint8Array) => void,
): Promise<boolean> {
  for await (const chunk of body) {
    observe?.(chunk);
    if (!response.write(chunk)) await drained(response);
    if (response.destroyed) return false;
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
