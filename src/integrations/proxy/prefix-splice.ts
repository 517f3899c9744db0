import { createHash } from 'node:crypto';
import type { PromptFields, RequestBody } from './protocol-adapter.js';

/**
 * The last compaction of a conversation: the original wire messages it replaced (by count and hash) and what
 * replaced them. Clients re-send their full history, so the next request starts with the same original
 * messages; splicing the replacement in means each stretch of history is summarized once.
 */
export interface StoredPrefix {
  /** How many original wire messages the replacement stands for. */
  readonly count: number;
  /** {@link prefixHash} of those messages (and of the top-level system prompt, when the protocol has one). */
  readonly hash: string;
  /** The compacted wire messages. */
  readonly messages: readonly unknown[];
  /** The compacted top-level system prompt (protocols with one); `undefined` when there is none. */
  readonly system?: unknown;
}

/** The wire messages (or items) and top-level system prompt of a request, as the splice sees them. */
export interface WirePrompt {
  readonly messages: readonly unknown[];
  /** Only for protocols with a top-level system prompt (Anthropic `system`, Responses `instructions`). */
  readonly system?: unknown;
}

/**
 * A hash of the system prompt and the first `count` messages. Messages are hashed as their JSON text: a client
 * re-sending the same history serializes it the same way, and any difference only costs a fresh compaction.
 */
export function prefixHash(prompt: WirePrompt, count: number): string {
  const hash = createHash('sha256');
  hash.update(stableJson(prompt.system ?? null));
  for (const message of prompt.messages.slice(0, count)) {
    hash.update('\u0000');
    hash.update(stableJson(message));
  }
  return hash.digest('hex');
}

/**
 * JSON text without `cache_control` markers: clients move their cache breakpoints to the newest messages on
 * every request, which must not make the same history look different.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (key, inner: unknown) => (key === 'cache_control' ? undefined : inner)) ?? '';
}

/**
 * A copy of wire messages without `cache_control` markers, for storing a replacement: spliced into a later
 * request, stale breakpoints would add to the client's new ones (Anthropic allows four).
 */
export function withoutCacheControl(messages: readonly unknown[]): unknown[] {
  return messages.map(strip);
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (key !== 'cache_control') out[key] = strip(inner);
  return out;
}

/** True when the prompt starts with the stored prefix's original messages (and has the same system prompt). */
export function startsWithPrefix(prompt: WirePrompt, stored: StoredPrefix): boolean {
  return prompt.messages.length >= stored.count && prefixHash(prompt, stored.count) === stored.hash;
}

/**
 * The prompt with its stored prefix replaced by the stored compaction, or `undefined` when the prompt does not
 * start with that prefix. Messages after the prefix are kept as they are (the very same values).
 */
export function splicePrefix(prompt: WirePrompt, stored: StoredPrefix): WirePrompt | undefined {
  if (!startsWithPrefix(prompt, stored)) return undefined;
  const messages = [...stored.messages, ...prompt.messages.slice(stored.count)];
  return stored.system === undefined ? { messages } : { messages, system: stored.system };
}

/** The prompt part of a request body. */
export function wirePromptOf(body: RequestBody, fields: PromptFields): WirePrompt {
  const messages = body[fields.promptKey] as readonly unknown[];
  const system = fields.systemKey === undefined ? undefined : body[fields.systemKey];
  return system !== undefined ? { messages, system } : { messages };
}

/** The body with its prompt replaced; every other field stays where it was. */
export function withPrompt(body: RequestBody, prompt: WirePrompt, fields: PromptFields): RequestBody {
  const out: Record<string, unknown> = { ...body, [fields.promptKey]: prompt.messages };
  if (fields.systemKey !== undefined) {
    if (prompt.system === undefined) delete out[fields.systemKey];
    else out[fields.systemKey] = prompt.system;
  }
  return out;
}
