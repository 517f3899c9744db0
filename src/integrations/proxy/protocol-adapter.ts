import type { Codec } from '../../codecs/codec.js';
import { exceedsJsonDepth } from '../../codecs/json-depth.js';
import { getCodec } from '../../codecs/registry.js';
import type { ProxyProtocol } from './routes.js';

/** A parsed request body: a JSON object. */
export type RequestBody = Readonly<Record<string, unknown>>;

/** Where a protocol's request keeps its prompt: the message list and, for some, a top-level system prompt. */
export interface PromptFields {
  /** `messages` (OpenAI chat, Anthropic) or `input` (OpenAI Responses). */
  readonly promptKey: string;
  /** `system` (Anthropic), `instructions` (OpenAI Responses), or none. */
  readonly systemKey: string | undefined;
}

/** What the proxy needs to know about one wire protocol. */
export interface ProtocolAdapter extends PromptFields {
  readonly protocol: ProxyProtocol;
  readonly codec: Codec;
  /** The prompt size an answer reports, when it does. */
  promptTokens(response: unknown): number | undefined;
  /** The prompt size a streamed event reports, when it carries usage. */
  promptTokensOfEvent(event: Readonly<Record<string, unknown>>): number | undefined;
  /** The system prompt, for the default conversation key. */
  systemPrompt(body: RequestBody): unknown;
  /**
   * Why a request of this protocol must go upstream untouched although it has a prompt (the conversation lives on
   * the provider's side, so the items we see are not the whole history), or `undefined` when it may be compacted.
   */
  passthroughReason(body: RequestBody): string | undefined;
}

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function firstSystem(items: unknown): unknown {
  const list = Array.isArray(items) ? (items as unknown[]) : [];
  const system = list.map(record).find((m) => m?.['role'] === 'system' || m?.['role'] === 'developer');
  return system?.['content'] ?? null;
}

const openai: ProtocolAdapter = {
  protocol: 'openai',
  codec: getCodec('openai'),
  promptKey: 'messages',
  systemKey: undefined,
  promptTokens(response) {
    const usage = record(record(response)?.['usage']);
    const tokens = usage?.['prompt_tokens'];
    return typeof tokens === 'number' ? tokens : undefined;
  },
  promptTokensOfEvent(event) {
    return openai.promptTokens(event);
  },
  systemPrompt(body) {
    return firstSystem(body['messages']);
  },
  passthroughReason: () => undefined,
};

const anthropic: ProtocolAdapter = {
  protocol: 'anthropic',
  codec: getCodec('anthropic'),
  promptKey: 'messages',
  systemKey: 'system',
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
  promptTokensOfEvent(event) {
    // Anthropic reports the prompt in `message_start`, inside the message.
    const message = record(event['message']);
    return anthropic.promptTokens(message !== undefined && 'usage' in message ? message : event);
  },
  systemPrompt(body) {
    return body['system'] ?? null;
  },
  passthroughReason: () => undefined,
};

const responses: ProtocolAdapter = {
  protocol: 'openai-responses',
  codec: getCodec('openai-responses'),
  promptKey: 'input',
  systemKey: 'instructions',
  promptTokens(response) {
    // `input_tokens` includes the cached part of the prompt.
    const tokens = record(record(response)?.['usage'])?.['input_tokens'];
    return typeof tokens === 'number' ? tokens : undefined;
  },
  promptTokensOfEvent(event) {
    // Usage comes once, with the whole response, in `response.completed` (or `response.incomplete`).
    return event['type'] === 'response.completed' || event['type'] === 'response.incomplete'
      ? responses.promptTokens(event['response'])
      : undefined;
  },
  systemPrompt(body) {
    return body['instructions'] ?? firstSystem(body['input']);
  },
  passthroughReason(body) {
    if (typeof body['previous_response_id'] === 'string') return 'previous-response-id';
    const conversation = body['conversation'];
    if (typeof conversation === 'string' || record(conversation) !== undefined) return 'stored-conversation';
    return undefined;
  },
};

const ADAPTERS: Readonly<Record<ProxyProtocol, ProtocolAdapter>> = {
  openai,
  anthropic,
  'openai-responses': responses,
};

/** The adapter of a protocol. */
export function adapterFor(protocol: ProxyProtocol): ProtocolAdapter {
  return ADAPTERS[protocol];
}

/** The parsed body when it is a JSON object whose prompt is a list (`messages`, `input`), else the reason why not. */
export function parseRequestBody(
  bytes: Buffer,
  adapter: ProtocolAdapter,
): { body?: RequestBody; reason?: string } {
  let value: unknown;
  const text = bytes.toString('utf8');
  try {
    value = JSON.parse(text);
  } catch {
    return { reason: 'not-json' };
  }
  // Nesting deeper than condense walks is forwarded as it came, like any body condense cannot read.
  if (exceedsJsonDepth(text)) return { reason: 'too-deep' };
  const body = record(value);
  if (body === undefined || !Array.isArray(body[adapter.promptKey])) return { reason: 'not-a-transcript' };
  return { body };
}
