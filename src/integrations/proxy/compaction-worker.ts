import { parentPort, workerData } from 'node:worker_threads';
import type { ContextEngine } from '../../engines/context-engine.js';
import { createEngine } from '../../engines/registry.js';
import { createRoughCounter } from '../../tokens/rough-counter.js';
import { safeStep } from './compaction-runner.js';
import { compactionStep } from './compaction-step.js';
import type { CondenseHeader } from './condense-header.js';
import { ConversationStore } from './conversation-store.js';
import type { ProxyProtocol } from './routes.js';

/**
 * How a worker thread makes the engine of a new conversation: a built-in engine from plain options, or a factory
 * a module builds from plain options (the CLI's engine flags, with models and keys).
 */
export type EngineRecipe =
  | { readonly kind: 'builtin'; readonly name: 'compressor' | 'rules'; readonly options: unknown }
  | { readonly kind: 'module'; readonly url: string; readonly exportName: string; readonly options: unknown };

/** What a compaction worker is started with. */
export interface CompactionWorkerData {
  readonly recipe: EngineRecipe;
  readonly capacity: number;
}

/** Messages to a compaction worker. */
export type ToCompactionWorker =
  | {
      readonly type: 'step';
      readonly id: number;
      readonly protocol: ProxyProtocol;
      readonly bytes: Uint8Array;
      readonly conversationHeader: string | undefined;
    }
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'usage'; readonly key: string; readonly promptTokens: number };

/** Messages from a compaction worker. */
export type FromCompactionWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'init-error'; readonly message: string }
  | {
      readonly type: 'done';
      readonly id: number;
      readonly body: Uint8Array;
      readonly header: CondenseHeader;
      readonly conversationKey?: string;
      readonly error?: string;
    }
  | { readonly type: 'aborted'; readonly id: number };

async function engineFactory(recipe: EngineRecipe): Promise<() => ContextEngine> {
  const counter = createRoughCounter();
  if (recipe.kind === 'builtin') {
    const options = (recipe.options ?? {}) as object;
    return () => createEngine(recipe.name, { counter, ...options });
  }
  const module = (await import(recipe.url)) as Record<string, unknown>;
  const make = module[recipe.exportName];
  if (typeof make !== 'function') throw new Error(`${recipe.url} exports no function ${recipe.exportName}`);
  return (make as (options: unknown) => (() => ContextEngine) | Promise<() => ContextEngine>)(recipe.options);
}

async function serve(): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const data = workerData as CompactionWorkerData;
  let newEngine: () => ContextEngine;
  try {
    newEngine = await engineFactory(data.recipe);
    // Made once up front, so a bad recipe fails the start rather than the first request.
    newEngine();
  } catch (error) {
    port.postMessage({
      type: 'init-error',
      message: (error as Error).message,
    } satisfies FromCompactionWorker);
    return;
  }
  const context = { store: new ConversationStore(data.capacity, newEngine), counter: createRoughCounter() };
  const running = new Map<number, AbortController>();
  port.on('message', (message: ToCompactionWorker) => {
    if (message.type === 'abort') running.get(message.id)?.abort();
    else if (message.type === 'usage') {
      context.store.peek(message.key)?.engine.updateFromResponse({ promptTokens: message.promptTokens });
    } else {
      const controller = new AbortController();
      running.set(message.id, controller);
      const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
      const run = () =>
        compactionStep(message.protocol, bytes, message.conversationHeader, context, controller.signal);
      void safeStep(run, bytes, controller.signal)
        .then((outcome) => {
          const body = new Uint8Array(outcome.body);
          port.postMessage(
            {
              type: 'done',
              id: message.id,
              body,
              header: outcome.header,
              ...(outcome.conversationKey === undefined ? {} : { conversationKey: outcome.conversationKey }),
              ...(outcome.error === undefined ? {} : { error: outcome.error }),
            } satisfies FromCompactionWorker,
            [body.buffer],
          );
        })
        .catch(() => port.postMessage({ type: 'aborted', id: message.id } satisfies FromCompactionWorker))
        .finally(() => running.delete(message.id));
    }
  });
  port.postMessage({ type: 'ready' } satisfies FromCompactionWorker);
}

void serve();
