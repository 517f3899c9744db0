import type { Codec } from '../../codecs/codec.js';
import { getCodec } from '../../codecs/registry.js';
import type { ProxyProtocol } from './routes.js';

/** A parsed request body: a JSON object. */
export type RequestBody = Readonly<Record<string, unknown>>;

/** What the proxy needs to know about one wire protocol. */
export interface ProtocolAdapter {
  readonly protocol: ProxyProtocol;
  readonly codec: Codec;
  /** True when the prefix hash and splice also cover a top-level `system` field. */
  readonly topLevelSystem: boolean;
  /** The prompt size an answer (or a streamed event carrying `usage`) reports, when it does. */
  promptTokens(response: unknown): number | undefined;
  /** The system prompt, for the default conversation key. */
  systemPrompt(body: RequestBody): unknown;
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

const openai: ProtocolAdapter = {
  protocol: 'openai',
  codec: getCodec('openai'),
  topLevelSystem: false,
  promptTokens(response) {
    const usage = record(record(response)?.['usage']);
    const tokens = usage?.['prompt_tokens'];
    return typeof tokens === 'number' ? tokens : undefined;
  },
  systemPrompt(body) {
    const messages = Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
    const system = messages.map(record).find((m) => m?.['role'] === 'system' || m?.['role'] === 'developer');
    return system?.['content'] ?? null;
  },
};

const anthropic: ProtocolAdapter = {
  protocol: 'anthropic',
  codec: getCodec('anthropic'),
  topLevelSystem: true,
  promptTokens(response) {
    const usage = record(record(response)?.['usage']);
    if (usage === undefined || typeof usage['input_tokens'] !== 'number') return undefined;
    // Cached input is still prompt: the window holds all of it.
    return (
      count(usage['input_tokens']) +
      count(usage['cache_read_input_tokens']) +
      count(usage['cache_creation_input_tokens'])
    );
  },
  systemPrompt(body) {
    return body['system'] ?? null;
  },
};

/** The adapter of a protocol. */
export function adapterFor(protocol: ProxyProtocol): ProtocolAdapter {
  return protocol === 'openai' ? openai : anthropic;
}

/** The parsed body when it is a JSON object with a `messages` array, else `undefined`. */
export function parseRequestBody(bytes: Buffer): { body?: RequestBody; reason?: string } {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { reason: 'not-json' };
  }
  const body = record(value);
  if (body === undefined || !Array.isArray(body['messages'])) return { reason: 'not-a-transcript' };
  return { body };
}
