import type { TokenCounter } from '../../tokens/token-counter.js';
import { compactionStep, type StepOutcome } from './compaction-step.js';
import { ConversationStore } from './conversation-store.js';
import type { ProxyProtocol } from './routes.js';

/** One compactable request for the runner: its protocol, its bytes and the conversation header it carried. */
export interface StepInput {
  readonly protocol: ProxyProtocol;
  readonly bytes: Buffer;
  readonly conversationHeader: string | undefined;
}

/** Where the proxy's compaction steps run: on the server's own thread, or on worker threads. */
export interface CompactionRunner {
  /** What to forward for a compactable request; never rejects except when `signal` aborts. */
  step(input: StepInput, signal: AbortSignal): Promise<StepOutcome>;
  /** Feeds the prompt size an answer reported to the engine of the conversation of an earlier step. */
  usage(conversationKey: string, promptTokens: number): void;
  close(): Promise<void>;
}

/**
 * A step that fails unexpectedly (a bug, input condense cannot walk) must not cost the request: the original
 * bytes go upstream and the failure is named in the header and the log.
 */
export async function safeStep(
  run: () => Promise<StepOutcome>,
  bytes: Buffer,
  signal: AbortSignal,
): Promise<StepOutcome> {
  try {
    return await run();
  } catch (caught) {
    if (signal.aborted) throw caught;
    const name = caught instanceof RangeError ? 'too-deep' : 'proxy-error';
    return {
      body: bytes,
      header: { action: 'passthrough', fields: [['reason', name]] },
      error: (caught as Error).name,
    };
  }
}

/** Runs every step on the calling thread, with one conversation store. */
export function inProcessRunner(
  capacity: number,
  newEngine: ConstructorParameters<typeof ConversationStore>[1],
  counter: TokenCounter,
): CompactionRunner {
  const context = { store: new ConversationStore(capacity, newEngine), counter };
  return {
    step: (input, signal) =>
      safeStep(
        () => compactionStep(input.protocol, input.bytes, input.conversationHeader, context, signal),
        input.bytes,
        signal,
      ),
    usage: (key, promptTokens) => context.store.peek(key)?.engine.updateFromResponse({ promptTokens }),
    close: async () => undefined,
  };
}
