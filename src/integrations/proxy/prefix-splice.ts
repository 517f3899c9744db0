import { createHash } from 'node:crypto';
import {
  type RunningHash,
  replacePrefix,
  type SequenceIdentity,
} from '../conversation-memory/prefix-identity.js';
import type { PromptFields, RequestBody } from './protocol-adapter.js';

/** What replaces a stored prefix of wire messages: the compacted messages and top-level system prompt. */
export interface WireReplacement {
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

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Wire messages are the same when their JSON text is (see {@link stableJson}): a client re-sending the same
 * history serializes it the same way, and any difference only costs a fresh compaction. The keys are SHA-256,
 * so the proxy keeps no original messages to confirm a hit with.
 */
export const wireIdentity: SequenceIdentity<unknown> = { fingerprint: stableJson, hash: runningSha256 };

function runningSha256(): RunningHash {
  const hash = createHash('sha256');
  // A copy reads the hash so far and leaves the running one open for the next message.
  return { update: (text) => hash.update(text), digest: () => hash.copy().digest('hex') };
}

/** What the prompt's messages are keyed under: its top-level system prompt, part of the prefix's identity. */
export function systemSeed(prompt: WirePrompt): string {
  return sha256(stableJson(prompt.system ?? null));
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

/**
 * The prompt with its first `count` messages replaced by `replacement` (and its system prompt by the
 * replacement's). Messages after the prefix are kept as they are (the very same values).
 */
export function spliceReplacement(
  prompt: WirePrompt,
  count: number,
  replacement: WireReplacement,
): WirePrompt {
  const messages = replacePrefix(prompt.messages, count, replacement.messages);
  return replacement.system === undefined ? { messages } : { messages, system: replacement.system };
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
