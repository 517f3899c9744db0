import { compactOrSmallest } from '../../engines/best-effort.js';
import type { CompactionReport } from '../../engines/compaction-report.js';
import { isCondenseError } from '../../errors/condense-error.js';
import type { Transcript } from '../../model/transcript.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import type { PrefixHit } from '../conversation-memory/prefix-memory.js';
import { type CondenseHeader, change } from './condense-header.js';
import { conversationIdentity } from './conversation-key.js';
import type { Conversation, ConversationStore, StoredCompaction } from './conversation-store.js';
import {
  spliceReplacement,
  systemSeed,
  type WirePrompt,
  wirePromptOf,
  withoutCacheControl,
  withPrompt,
} from './prefix-splice.js';
import { adapterFor, type ProtocolAdapter, parseRequestBody, type RequestBody } from './protocol-adapter.js';
import type { ProxyProtocol } from './routes.js';

/** What to send upstream for a compactable request, and what to say about it. */
export interface StepOutcome {
  /** The body to forward: the original bytes unless the prompt was compacted or a stored prefix spliced in. */
  readonly body: Buffer;
  readonly header: CondenseHeader;
  /** The key of the conversation the request belongs to (absent for bodies that are no transcript). */
  readonly conversationKey?: string;
  /** A failure that made the proxy forward the original (the engine's error code, never a body). */
  readonly error?: string;
}

/** What the compaction step works with. */
export interface StepContext {
  readonly store: ConversationStore;
  readonly counter: TokenCounter;
}

/**
 * Decides what a chat request becomes: the original bytes (under the threshold, or not a transcript), the
 * original with the conversation's stored compaction spliced in (`reused`), or a fresh compaction
 * (`compacted`). Requests of one conversation pass through here one at a time.
 */
export async function compactionStep(
  protocol: ProxyProtocol,
  bytes: Buffer,
  conversationHeader: string | undefined,
  context: StepContext,
  signal: AbortSignal,
): Promise<StepOutcome> {
  const adapter = adapterFor(protocol);
  const parsed = parseRequestBody(bytes, adapter);
  const body = parsed.body;
  if (body === undefined) {
    return {
      body: bytes,
      header: { action: 'passthrough', fields: [['reason', parsed.reason ?? 'unknown']] },
    };
  }
  const chained = adapter.passthroughReason(body);
  if (chained !== undefined) {
    // The history lives on the provider's side: what the request carries is not the whole conversation.
    return { body: bytes, header: { action: 'passthrough', fields: [['reason', chained]] } };
  }
  const identity = conversationIdentity(adapter, body, conversationHeader);
  const conversation = context.store.get(identity.key, identity.id);
  const outcome = await conversation.exclusive(() =>
    stepWithin(conversation, adapter, body, bytes, context.counter, signal),
  );
  return { ...outcome, conversationKey: identity.key };
}

interface Working {
  readonly original: WirePrompt;
  /** What the original's messages are keyed under in the conversation's memory. */
  readonly seed: string;
  readonly prompt: WirePrompt;
  /** The stored compaction spliced in, and how many original messages it stands for. */
  readonly reused: PrefixHit<StoredCompaction> | undefined;
  readonly transcript: Transcript;
  readonly tokens: number;
  /** Tokens of the original prompt (before any splice). */
  readonly originalTokens: number;
}

async function stepWithin(
  conversation: Conversation,
  adapter: ProtocolAdapter,
  body: RequestBody,
  bytes: Buffer,
  counter: TokenCounter,
  signal: AbortSignal,
): Promise<StepOutcome> {
  const idField = ['conversation', conversation.id] as const;
  const working = prepare(conversation, adapter, body, counter);
  if (working === undefined) {
    return { body: bytes, header: { action: 'passthrough', fields: [['reason', 'decode-issues'], idField] } };
  }
  const engine = conversation.engine;
  let reason = 'under-threshold';
  let error: string | undefined;
  if (engine.shouldCompressPreflight(working.transcript)) {
    // Past the window even a short conversation is tried: the pass may fold around the request, and when it
    // cannot, the header says `over-window` rather than that there was nothing to fold.
    const overWindow = working.tokens > engine.status().contextLength;
    if (overWindow || engine.hasContentToCompress(working.transcript)) {
      try {
        const { result, overflow } = await compactOrSmallest(engine, working.transcript, { signal });
        const { transcript, report } = result;
        if (report.madeProgress && !report.aborted) {
          // Even over the configured window the smallest compaction goes out, marked: the upstream may have
          // more room than configured, and the original is bigger still.
          const over = overflow === undefined ? undefined : change(overflow.tokens, overflow.limit);
          return compacted(conversation, adapter, body, working, transcript, report, counter, over);
        }
        reason = report.aborted ? 'aborted' : overflow === undefined ? 'no-progress' : 'over-window';
      } catch (caught) {
        if (signal.aborted) throw caught;
        reason = 'engine-error';
        error = isCondenseError(caught) ? caught.code : (caught as Error).name;
      }
    } else reason = 'nothing-to-fold';
  } else if (engine.status().blocked !== undefined && working.tokens >= engine.status().thresholdTokens) {
    reason = 'blocked';
  }
  const errorField = error === undefined ? {} : { error };
  if (working.reused !== undefined) {
    const spliced = withPrompt(body, working.prompt, adapter);
    const fields: CondenseHeader['fields'] = [
      ['tokens', change(working.originalTokens, working.tokens)],
      ['messages', change(working.original.messages.length, working.prompt.messages.length)],
      idField,
    ];
    return {
      body: Buffer.from(JSON.stringify(spliced)),
      header: { action: 'reused', fields },
      ...errorField,
    };
  }
  const fields: CondenseHeader['fields'] = [['tokens', working.tokens], ['reason', reason], idField];
  return { body: bytes, header: { action: 'passthrough', fields }, ...errorField };
}

/** Splices the stored compaction in when the request starts with its prefix, and decodes the result. */
function prepare(
  conversation: Conversation,
  adapter: ProtocolAdapter,
  body: RequestBody,
  counter: TokenCounter,
): Working | undefined {
  const original = wirePromptOf(body, adapter);
  const seed = systemSeed(original);
  const reused = conversation.compactions.lookup(original.messages, seed);
  if (reused === undefined && conversation.compactions.size > 0) {
    // The history changed under the stored prefix (edited, rewound, or the client compacted it itself).
    conversation.compactions.clear();
    conversation.engine.resetSession();
  }
  const spliced = reused === undefined ? undefined : spliceReplacement(original, reused.length, reused.value);
  const prompt = spliced ?? original;
  const decoded = adapter.codec.decode(spliced === undefined ? body : withPrompt(body, spliced, adapter));
  if (decoded.issues.some((issue) => issue.severity === 'error')) return undefined;
  const tokens = counter.countTranscript(decoded.value);
  const originalTokens =
    reused === undefined ? tokens : tokens - reused.value.replacementTokens + reused.value.originalTokens;
  return { original, seed, prompt, reused, transcript: decoded.value, tokens, originalTokens };
}

function compacted(
  conversation: Conversation,
  adapter: ProtocolAdapter,
  body: RequestBody,
  working: Working,
  transcript: Transcript,
  report: CompactionReport,
  counter: TokenCounter,
  overWindow?: string,
): StepOutcome {
  const encoded = adapter.codec.encode(transcript) as RequestBody;
  const prompt = wirePromptOf(encoded, adapter);
  const tokensAfter = counter.countTranscript(transcript);
  const replacement: StoredCompaction = {
    messages: withoutCacheControl(prompt.messages),
    ...(prompt.system === undefined ? {} : { system: prompt.system }),
    originalTokens: working.originalTokens,
    replacementTokens: tokensAfter,
  };
  conversation.compactions.store(working.original.messages, replacement, working.seed);
  const fields: [string, string | number][] = [
    ['engine', conversation.engine.name],
    ['tokens', change(working.originalTokens, tokensAfter)],
    ['messages', change(working.original.messages.length, prompt.messages.length)],
    ['summary', report.summary.source],
  ];
  if (working.reused !== undefined) fields.push(['reused', working.reused.length]);
  if (overWindow !== undefined) fields.push(['over-window', overWindow]);
  fields.push(['conversation', conversation.id]);
  return {
    body: Buffer.from(JSON.stringify(withPrompt(body, prompt, adapter))),
    header: { action: 'compacted', fields },
  };
}
