import type { CompressorOptions } from '../../engines/compressor/options.js';
import type { ContextEngine } from '../../engines/context-engine.js';
import { createEngine } from '../../engines/registry.js';
import { CondenseError } from '../../errors/condense-error.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import type { EngineChoice } from '../engine-choice.js';

/** One line's worth of what the proxy did with a request. Never carries bodies, headers or keys. */
export interface ProxyEvent {
  readonly method: string;
  /** The request path without its query string (queries may carry keys). */
  readonly path: string;
  /** The status sent to the client (0 when the client went away before any answer). */
  readonly status: number;
  readonly durationMs: number;
  /** `passthrough`, `compacted`, `reused` or `error` (the first word of the `x-condense` header). */
  readonly action: string;
  /** The full `x-condense` header value: `key=value` figures such as tokens and messages. */
  readonly detail: string;
  /** A short description of a failure (engine error, unreachable upstream), without secrets. */
  readonly error?: string;
}

/** Options of {@link startProxy}; defaults are in {@link PROXY_DEFAULTS}. */
export type ProxyOptions = EngineChoice & {
  /** Base URL of the provider, e.g. `https://api.openai.com/v1` or `https://api.anthropic.com`. Required. */
  readonly upstream: string;
  /** Port to listen on; 0 picks a free one. @default 8787 */
  readonly port?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  readonly host?: string;
  /** Request bodies larger than this get a 413. @default 33_554_432 (32 MiB) */
  readonly maxBodyBytes?: number;
  /** Conversations remembered (engine state and last compaction), least recently used dropped first. @default 1000 */
  readonly maxConversations?: number;
  /** Called once per finished request. */
  readonly onEvent?: (event: ProxyEvent) => void;
  /** The `fetch` used to reach the upstream. @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Estimator for the `tokens=` figures and the built-in engines. Default: the calibrated rough counter. */
  readonly counter?: TokenCounter;
};

/** The defaults of {@link ProxyOptions}. */
export const PROXY_DEFAULTS = {
  port: 8787,
  host: '127.0.0.1',
  maxBodyBytes: 32 * 1024 * 1024,
  maxConversations: 1000,
  engine: 'compressor',
} as const;

/** Options after defaults and validation. */
export interface ResolvedProxyOptions {
  readonly upstream: URL;
  readonly port: number;
  readonly host: string;
  readonly maxBodyBytes: number;
  readonly maxConversations: number;
  readonly onEvent: ((event: ProxyEvent) => void) | undefined;
  readonly fetch: typeof fetch;
  /** A fresh engine for a new conversation. */
  readonly newEngine: () => ContextEngine;
}

/** Applies defaults and rejects a missing or malformed upstream and out-of-range numbers. */
export function resolveProxyOptions(options: ProxyOptions, counter: TokenCounter): ResolvedProxyOptions {
  const upstream = parseUpstream(options.upstream);
  const port = options.port ?? PROXY_DEFAULTS.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) invalid(`port must be 0–65535, got ${port}`);
  const maxBodyBytes = options.maxBodyBytes ?? PROXY_DEFAULTS.maxBodyBytes;
  positiveInteger('maxBodyBytes', maxBodyBytes);
  const maxConversations = options.maxConversations ?? PROXY_DEFAULTS.maxConversations;
  positiveInteger('maxConversations', maxConversations);
  return {
    upstream,
    port,
    host: options.host ?? PROXY_DEFAULTS.host,
    maxBodyBytes,
    maxConversations,
    onEvent: options.onEvent,
    fetch: options.fetch ?? globalThis.fetch,
    newEngine: engineFactory(options, counter),
  };
}

function engineFactory(choice: EngineChoice, counter: TokenCounter): () => ContextEngine {
  if (typeof choice.engine === 'function') return choice.engine;
  // The proxy's counter is shared so the per-message count cache serves the engine and the header figures.
  if (choice.engine === 'rules') {
    const options = choice.engineOptions ?? {};
    return () => createEngine('rules', { counter, ...options });
  }
  const options: CompressorOptions = choice.engineOptions ?? {};
  return () => createEngine('compressor', { counter, ...options });
}

function parseUpstream(value: string | undefined): URL {
  if (value === undefined || value === '') {
    invalid('the proxy needs an upstream URL', 'e.g. https://api.openai.com/v1 or https://api.anthropic.com');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    invalid(
      `upstream is not a URL: "${value}"`,
      'give an absolute http(s) URL, e.g. https://api.openai.com/v1',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    invalid(`upstream must be http or https, got "${url.protocol}"`);
  }
  if (url.search !== '' || url.hash !== '') invalid('upstream must not have a query string or fragment');
  return url;
}

function positiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) invalid(`${name} must be a positive integer, got ${value}`);
}

function invalid(message: string, hint?: string): never {
  throw new CondenseError({ code: 'INVALID_OPTIONS', message, ...(hint === undefined ? {} : { hint }) });
}
