/** The request shapes the proxy compacts. */
export type ProxyProtocol = 'openai' | 'anthropic' | 'openai-responses';

/**
 * The protocol of a request the proxy may compact: `POST …/chat/completions` (OpenAI Chat Completions, also
 * under other prefixes such as Azure deployments), `POST …/responses` (OpenAI Responses; not its sub-routes such
 * as `/responses/compact` or `/responses/{id}/cancel`) and `POST /v1/messages` or `/messages` (Anthropic
 * Messages). Everything else passes through untouched.
 */
export function protocolOf(method: string, path: string): ProxyProtocol | undefined {
  if (method !== 'POST') return undefined;
  if (/(?:^|\/)chat\/completions\/?$/.test(path)) return 'openai';
  if (/(?:^|\/)responses\/?$/.test(path)) return 'openai-responses';
  if (/^(?:\/v1)?\/messages\/?$/.test(path)) return 'anthropic';
  return undefined;
}

/**
 * The upstream URL of a request: the upstream base followed by the request path and query. When the base
 * already ends in `/v1` and the path starts with `/v1/`, the path's `/v1` is dropped, so clients pointed at
 * `http://proxy/v1` (OpenAI SDKs) or `http://proxy` (Anthropic SDKs) work with either style of upstream.
 */
export function upstreamUrl(upstream: URL, requestTarget: string): URL {
  const queryAt = requestTarget.indexOf('?');
  let path = queryAt === -1 ? requestTarget : requestTarget.slice(0, queryAt);
  const query = queryAt === -1 ? '' : requestTarget.slice(queryAt);
  const base = upstream.pathname.replace(/\/+$/, '');
  if (/\/v1$/.test(base) && (path === '/v1' || path.startsWith('/v1/'))) path = path.slice(3);
  if (!path.startsWith('/')) path = `/${path}`;
  const url = new URL(upstream.href);
  url.pathname = `${base}${path}`;
  url.search = query;
  return url;
}

/** The path part of a request target (what logs show: queries may carry keys). */
export function pathOf(requestTarget: string): string {
  const queryAt = requestTarget.indexOf('?');
  return queryAt === -1 ? requestTarget : requestTarget.slice(0, queryAt);
}
