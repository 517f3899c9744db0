import type { ModelMessage, PrepareStepFunction, PrepareStepResult, Tool } from 'ai';
import { compactOrSmallest, type WindowOverflow } from '../../engines/best-effort.js';
import type { CompactionReport } from '../../engines/compaction-report.js';
import type { ContextEngine, EngineStatus } from '../../engines/context-engine.js';
import { type CompactionFeedback, describeCompaction } from '../../engines/feedback.js';
import { LruMap } from '../conversation-memory/lru-map.js';
import { type EngineChoice, engineFrom } from '../engine-choice.js';
import { decodeMessages, encodeMessages } from './ai-sdk-messages.js';
import { defaultConversationKey } from './conversation-key.js';
import { PrefixCache } from './prefix-cache.js';

/** What {@link condensePrepareStep} tells you after each compaction it ran. */
export interface CompactionEvent {
  readonly conversation: string;
  /** The AI SDK step the compaction ran before; -1 for {@link CondensePrepareStep.compactNow}. */
  readonly stepNumber: number;
  /** What the model is sent instead of the full history: head, checkpoint, tail. */
  readonly messages: readonly ModelMessage[];
  readonly report: CompactionReport;
  /** The lines to show a user (headline, request size before → after, a note when something went wrong). */
  readonly feedback: CompactionFeedback;
  /**
   * Set when even the smallest compaction does not fit the configured window: `messages` is that smallest
   * compaction, sent anyway (the provider decides), and this says by how much it is over.
   */
  readonly overflow?: WindowOverflow;
}

/** Options of {@link condensePrepareStep}; see {@link EngineChoice} for `engine` and `engineOptions`. */
export type CondensePrepareStepOptions = EngineChoice & {
  /**
   * Which conversation a message list belongs to; each conversation has its own engine state (previous
   * checkpoint, anti-thrash). The default cannot tell apart two conversations that open with the same system
   * and user message, so an app running many conversations through one instance should pass its own id (for
   * example from `experimental_context`). @default the first system and first user message, hashed
   */
  readonly conversationKey?: (messages: readonly ModelMessage[], context: unknown) => string;
  /** Conversations remembered at once; the least recently used is forgotten first. @default 100 */
  readonly maxConversations?: number;
  /** Topic that gets most of each checkpoint. */
  readonly focusTopic?: string;
  /** Called after every compaction (also one that found nothing to fold or failed: see `feedback`). */
  readonly onCompaction?: (event: CompactionEvent) => void | Promise<void>;
  /**
   * Called when compaction throws; the step then runs on the uncompacted history. Without it, the error
   * propagates and the AI SDK call fails.
   */
  readonly onError?: (error: unknown, conversation: string) => void;
};

/** Arguments the AI SDK passes to `prepareStep`. */
type StepArguments<TOOLS extends Record<string, Tool>> = Parameters<PrepareStepFunction<TOOLS>>[0];

/** A `prepareStep` function that compacts, with helpers to keep the app's own history compacted too. */
export interface CondensePrepareStep {
  <TOOLS extends Record<string, Tool>>(step: StepArguments<TOOLS>): Promise<PrepareStepResult<TOOLS>>;
  /**
   * `history` with every stretch already compacted replaced by its compacted form (checkpoint included): store
   * this as the app's history after a call, so the summary is part of it and later calls start small.
   */
  compactedHistory(history: readonly ModelMessage[]): ModelMessage[];
  /** Manual compaction (`/compress [topic]`): compacts now, whatever the threshold says. */
  compactNow(
    history: readonly ModelMessage[],
    options?: { readonly focusTopic?: string; readonly context?: unknown },
  ): Promise<CompactionEvent>;
  /** The state of a conversation's engine, if the conversation is known. */
  status(conversation: string): EngineStatus | undefined;
}

/**
 * A `prepareStep` for `generateText`, `streamText` and `ToolLoopAgent` that keeps the prompt inside the context
 * window. Before each step it splices in what earlier steps already compacted, asks the conversation's engine
 * whether the prompt crosses its threshold, and if so compacts it (old tool output pruned, the middle folded
 * into a checkpoint, the latest user request kept verbatim) and returns `{ messages }`. Real prompt sizes the
 * provider reports are fed back to the engine after each step. Messages are treated as immutable.
 *
 * @example
 * const condense = condensePrepareStep({ engine: 'rules', engineOptions: { contextLength: 32_000 } });
 * const result = await generateText({ model, tools, messages, prepareStep: condense, stopWhen: stepCountIs(50) });
 * history = condense.compactedHistory([...messages, ...result.response.messages]);
 */
export function condensePrepareStep(options: CondensePrepareStepOptions = {}): CondensePrepareStep {
  const maxConversations = Math.max(1, options.maxConversations ?? 100);
  const engines = new LruMap<string, ContextEngine>({ capacity: maxConversations });
  const cache = new PrefixCache<ModelMessage>(maxConversations * 2);
  const keyOf = options.conversationKey ?? ((messages) => defaultConversationKey(messages));

  const engineFor = (conversation: string): ContextEngine =>
    engines.getOrCreate(conversation, () => engineFrom(options));

  const run = async (
    history: readonly ModelMessage[],
    conversation: string,
    stepNumber: number,
    manual?: { readonly focusTopic?: string },
  ): Promise<{ readonly event?: CompactionEvent; readonly messages: readonly ModelMessage[] }> => {
    const engine = engineFor(conversation);
    const { messages: spliced, reused } = cache.splice(history);
    const transcript = decodeMessages(spliced);
    if (manual === undefined && !engine.shouldCompressPreflight(transcript)) {
      return { messages: reused > 0 ? spliced : history };
    }
    const focusTopic = manual?.focusTopic ?? options.focusTopic;
    const { result, overflow } = await compactOrSmallest(engine, transcript, {
      force: manual !== undefined,
      ...(focusTopic === undefined ? {} : { focusTopic }),
    });
    const feedback = describeCompaction(result.report);
    const changed = !feedback.noop && !result.report.aborted;
    const unchanged = reused > 0 ? spliced : history;
    const messages = changed ? (encodeMessages(result.transcript) as ModelMessage[]) : unchanged;
    if (changed) cache.store(history, messages);
    const event: CompactionEvent = {
      conversation,
      stepNumber,
      messages,
      report: result.report,
      feedback,
      ...(overflow === undefined ? {} : { overflow }),
    };
    await options.onCompaction?.(event);
    return { event, messages };
  };

  const prepareStep = async <TOOLS extends Record<string, Tool>>(
    step: StepArguments<TOOLS>,
  ): Promise<PrepareStepResult<TOOLS>> => {
    const conversation = keyOf(step.messages, step.experimental_context);
    const promptTokens = step.steps.at(-1)?.usage.inputTokens;
    if (promptTokens !== undefined) engineFor(conversation).updateFromResponse({ promptTokens });
    try {
      const { messages } = await run(step.messages, conversation, step.stepNumber);
      return messages === step.messages ? {} : { messages: [...messages] };
    } catch (error) {
      if (options.onError === undefined) throw error;
      options.onError(error, conversation);
      return {};
    }
  };

  return Object.assign(prepareStep, {
    compactedHistory: (history: readonly ModelMessage[]) => [...cache.splice(history).messages],
    async compactNow(
      history: readonly ModelMessage[],
      manual: { readonly focusTopic?: string; readonly context?: unknown } = {},
    ): Promise<CompactionEvent> {
      const conversation = keyOf(history, manual.context);
      return (await run(history, conversation, -1, manual)).event as CompactionEvent;
    },
    status: (conversation: string) => engines.peek(conversation)?.status(),
  });
}
