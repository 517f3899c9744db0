import * as z from 'zod';
import type { CompressorOptions } from '../../engines/compressor/options.js';
import type { ContextEngine } from '../../engines/context-engine.js';
import { createEngine } from '../../engines/registry.js';
import { integerAtLeast, unchecked } from '../../errors/option-fields.js';
import { invalidOption, parseOptions, type SameKeys } from '../../errors/parse-options.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import type { EngineChoice } from '../engine-choice.js';
import type { EngineRecipe } from './compaction-worker.js';
import { PROXY_DEFAULTS } from './defaults.js';

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
  /**
   * Largest body of a compactable request (chat completions, responses, messages) the proxy reads to compact it;
   * a larger one gets a 413. Other routes are streamed through whatever their size. @default 33_554_432 (32 MiB)
   */
  readonly maxBodyBytes?: number;
  /** Conversations remembered (engine state and last compaction), least recently used dropped first. @default 1000 */
  readonly maxConversations?: number;
  /** Called once per finished request. */
  readonly onEvent?: (event: ProxyEvent) => void;
  /**
   * A `fetch` to reach the upstream with (instrumentation, custom transports). By default the proxy uses
   * `node:http`/`node:https` with keep-alive connections, which sends the headers exactly as the client did (no
   * `sec-fetch-mode` or `accept-language` of its own) and sends a request again when the kept-alive connection
   * it went out on had been closed by the upstream.
   */
  readonly fetch?: typeof fetch;
  /**
   * Worker threads that run compaction, so a large prompt being compacted never holds up other requests; 0 runs
   * it on the server's thread. Workers need an engine they can make themselves: a built-in engine whose options
   * are plain data (no functions, counters or summarizer objects), or {@link ProxyOptions.engineModule}.
   * @default 2 when the engine can be made on a worker thread, else 0
   */
  readonly compactionThreads?: number;
  /**
   * How worker threads make engines when `engine` is a function: a module (URL) whose export `exportName`,
   * called with `options` (plain data), returns the engine factory (or a promise of it).
   */
  readonly engineModule?: { readonly url: string; readonly exportName: string; readonly options?: unknown };
  /** Estimator for the `tokens=` figures and the built-in engines. Default: the calibrated rough counter. */
  readonly counter?: TokenCounter;
};

export { PROXY_DEFAULTS } from './defaults.js';

/** Options after defaults and validation. */
export interface ResolvedProxyOptions {
  readonly upstream: URL;
  readonly port: number;
  readonly host: string;
  readonly maxBodyBytes: number;
  readonly maxConversations: number;
  readonly onEvent: ((event: ProxyEvent) => void) | undefined;
  /** The injected `fetch`, when one was given (else the proxy's own `node:http` client is used). */
  readonly fetch: typeof fetch | undefined;
  /** A fresh engine for a new conversation (steps on the server's thread). */
  readonly newEngine: () => ContextEngine;
  /** Worker threads for compaction (0: the server's thread). */
  readonly compactionThreads: number;
  /** How workers make engines, when they run compaction. */
  readonly recipe: EngineRecipe | undefined;
}

const proxyOptionsSchema = z
  .strictObject({
    upstream: unchecked<string>(),
    port: integerAtLeast(0, 'an integer in 0–65535').max(65_535, { error: 'an integer in 0–65535' }),
    host: z.string({ error: 'a host name or address' }),
    maxBodyBytes: integerAtLeast(1),
    maxConversations: integerAtLeast(1),
    onEvent: unchecked<(event: ProxyEvent) => void>(),
    fetch: unchecked<typeof fetch>(),
    compactionThreads: integerAtLeast(0, 'a whole number'),
    engineModule: unchecked<ProxyOptions['engineModule']>(),
    counter: unchecked<TokenCounter>(),
    engine: unchecked<ProxyOptions['engine']>(),
    engineOptions: unchecked<ProxyOptions['engineOptions']>(),
  })
  .partial();

// Every key of ProxyOptions, and no other, is in the schema (checked by the compiler).
true satisfies SameKeys<ProxyOptions, z.input<typeof proxyOptionsSchema>>;

/** Applies defaults and rejects unknown keys, a missing or malformed upstream and out-of-range numbers. */
export function resolveProxyOptions(options: ProxyOptions, counter: TokenCounter): ResolvedProxyOptions {
  const parsed = parseOptions(proxyOptionsSchema, options, { noun: 'proxy option' });
  return {
    upstream: parseUpstream(parsed.upstream),
    port: parsed.port ?? PROXY_DEFAULTS.port,
    host: parsed.host ?? PROXY_DEFAULTS.host,
    maxBodyBytes: parsed.maxBodyBytes ?? PROXY_DEFAULTS.maxBodyBytes,
    maxConversations: parsed.maxConversations ?? PROXY_DEFAULTS.maxConversations,
    onEvent: options.onEvent,
    fetch: options.fetch,
    newEngine: engineFactory(options, counter),
    ...threads(options),
  };
}

/** The compaction threads asked for (or the default) and the recipe that lets workers make engines. */
function threads(options: ProxyOptions): { compactionThreads: number; recipe: EngineRecipe | undefined } {
  const recipe = workerRecipe(options);
  const compactionThreads = options.compactionThreads ?? (recipe === undefined ? 0 : DEFAULT_THREADS);
  if (compactionThreads > 0 && recipe === undefined) {
    throw invalidOption(
      'compaction threads need an engine a worker thread can make',
      'use a built-in engine with plain-data options, pass engineModule, or set compactionThreads to 0',
    );
  }
  return { compactionThreads, recipe };
}

const DEFAULT_THREADS = 2;

function workerRecipe(options: ProxyOptions): EngineRecipe | undefined {
  if (options.counter !== undefined) return undefined;
  if (typeof options.engine === 'function') {
    const module = options.engineModule;
    if (module === undefined) return undefined;
    return { kind: 'module', url: module.url, exportName: module.exportName, options: module.options };
  }
  const engineOptions: unknown = options.engineOptions ?? {};
  if (!isPlainData(engineOptions, 0)) return undefined;
  return { kind: 'builtin', name: options.engine ?? 'compressor', options: engineOptions };
}

/** True for values a worker thread receives intact: JSON-like data of plain objects and arrays. */
function isPlainData(value: unknown, depth: number): boolean {
  if (depth > 64) return false;
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every((item) => isPlainData(item, depth + 1));
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value as object).every((item) => isPlainData(item, depth + 1));
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
    throw invalidOption(
      'the proxy needs an upstream URL',
      'e.g. https://api.openai.com/v1 or https://api.anthropic.com',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidOption(
      `upstream is not a URL: "${value}"`,
      'give an absolute http(s) URL, e.g. https://api.openai.com/v1',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidOption(`upstream must be http or https, got "${url.protocol}"`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw invalidOption('upstream must not have a query string or fragment');
  }
  return url;
}
