import { Worker } from 'node:worker_threads';
import { CondenseError } from '../../errors/condense-error.js';
import { LruMap } from '../conversation-memory/lru-map.js';
import { type CompactionRunner, type StepInput, safeStep } from './compaction-runner.js';
import type { StepOutcome } from './compaction-step.js';
import type {
  CompactionWorkerData,
  EngineRecipe,
  FromCompactionWorker,
  ToCompactionWorker,
} from './compaction-worker.js';
import { conversationIdentity } from './conversation-key.js';
import { adapterFor, parseRequestBody } from './protocol-adapter.js';

/** Options of {@link startCompactionPool}. */
export interface CompactionPoolOptions {
  readonly size: number;
  readonly recipe: EngineRecipe;
  /** Conversations each worker remembers. */
  readonly capacity: number;
  /** The built worker script. @default dist/integrations/proxy/compaction-worker.js next to this module */
  readonly script?: URL;
}

interface Pending {
  readonly resolve: (outcome: StepOutcome) => void;
  readonly reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  readonly pending: Map<number, Pending>;
  /** Bytes of the requests in flight: the measure of how busy it is (one huge prompt outweighs many small). */
  pendingBytes: number;
  conversations: number;
}

/** The worker script: beside this module when built, else (TypeScript sources in tests) the one in `dist/`. */
export function defaultCompactionScript(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('../../../dist/integrations/proxy/compaction-worker.js', here)
    : new URL('./compaction-worker.js', here);
}

function startWorker(script: URL, data: CompactionWorkerData): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: data });
    const fail = (error: Error): void => {
      void worker.terminate();
      reject(error);
    };
    worker.once('error', fail);
    worker.once('message', (message: FromCompactionWorker) => {
      worker.off('error', fail);
      if (message.type === 'ready') resolve(worker);
      else
        fail(
          new CondenseError({
            code: 'INVALID_OPTIONS',
            message: `compaction worker: ${'message' in message ? message.message : message.type}`,
          }),
        );
    });
  });
}

interface PoolState {
  readonly script: URL;
  readonly data: CompactionWorkerData;
  readonly slots: Slot[];
  /** Conversation key → the worker that holds its engine, least recently used first. */
  readonly routes: LruMap<string, Slot>;
  nextId: number;
  closing: boolean;
}

function listen(pool: PoolState, slot: Slot): void {
  slot.worker.on('message', (message: FromCompactionWorker) => {
    if (message.type !== 'done' && message.type !== 'aborted') return;
    const pending = slot.pending.get(message.id);
    slot.pending.delete(message.id);
    if (pending === undefined || message.type === 'aborted') return;
    pending.resolve({
      body: Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength),
      header: message.header,
      ...(message.conversationKey === undefined ? {} : { conversationKey: message.conversationKey }),
      ...(message.error === undefined ? {} : { error: message.error }),
    });
  });
  slot.worker.once('exit', () => {
    const lost = [...slot.pending.values()];
    slot.pending.clear();
    slot.pendingBytes = 0;
    for (const pending of lost) pending.reject(new Error('compaction worker exited'));
    if (pool.closing) return;
    for (const [key, routed] of pool.routes.entries()) if (routed === slot) pool.routes.delete(key);
    slot.conversations = 0;
    // Its conversations start afresh on the replacement (their engines died with the worker).
    void startWorker(pool.script, pool.data).then((worker) => {
      slot.worker = worker;
      listen(pool, slot);
    });
  });
}

/** The worker of a conversation: the one it is pinned to, else the least busy (which it is then pinned to). */
function slotFor(pool: PoolState, key: string): Slot {
  const known = pool.routes.get(key);
  if (known !== undefined) return known;
  const chosen = pool.slots.reduce((best, slot) =>
    slot.pendingBytes < best.pendingBytes ||
    (slot.pendingBytes === best.pendingBytes && slot.conversations < best.conversations)
      ? slot
      : best,
  );
  chosen.conversations++;
  pool.routes.set(key, chosen);
  return chosen;
}

function dispatch(pool: PoolState, slot: Slot, input: StepInput, signal: AbortSignal): Promise<StepOutcome> {
  return new Promise((resolve, reject) => {
    const id = pool.nextId++;
    const size = input.bytes.length;
    slot.pendingBytes += size;
    const onAbort = (): void => {
      slot.pending.delete(id);
      slot.pendingBytes -= size;
      slot.worker.postMessage({ type: 'abort', id } satisfies ToCompactionWorker);
      reject(signal.reason);
    };
    const settle =
      <T>(finish: (value: T) => void) =>
      (value: T): void => {
        signal.removeEventListener('abort', onAbort);
        slot.pendingBytes -= size;
        finish(value);
      };
    slot.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
    signal.addEventListener('abort', onAbort, { once: true });
    const copy = new Uint8Array(input.bytes);
    const message: ToCompactionWorker = {
      type: 'step',
      id,
      protocol: input.protocol,
      bytes: copy,
      conversationHeader: input.conversationHeader,
    };
    slot.worker.postMessage(message, [copy.buffer]);
  });
}

/** Answers here what needs no engine; hands the rest to the conversation's worker. */
function route(pool: PoolState, input: StepInput, signal: AbortSignal): Promise<StepOutcome> {
  const adapter = adapterFor(input.protocol);
  const parsed = parseRequestBody(input.bytes, adapter);
  const chained = parsed.body === undefined ? undefined : adapter.passthroughReason(parsed.body);
  if (parsed.body === undefined || chained !== undefined) {
    const reason = parsed.reason ?? chained ?? 'unknown';
    return Promise.resolve({
      body: input.bytes,
      header: { action: 'passthrough', fields: [['reason', reason]] },
    });
  }
  const identity = conversationIdentity(adapter, parsed.body, input.conversationHeader);
  return dispatch(pool, slotFor(pool, identity.key), input, signal);
}

/**
 * Runs compaction steps on worker threads, so a large prompt being compacted never holds up the server's own
 * thread (or other conversations' requests): each conversation is pinned to one worker, which keeps its engine
 * and stored compaction; a new conversation goes to the least busy worker. What needs no engine (bodies that are
 * no transcript, too deep, or chained on provider-side history) is answered here. A worker that dies fails its
 * steps over to forwarding the original bytes and is replaced.
 */
export async function startCompactionPool(options: CompactionPoolOptions): Promise<CompactionRunner> {
  const script = options.script ?? defaultCompactionScript();
  const data: CompactionWorkerData = { recipe: options.recipe, capacity: options.capacity };
  const started = await Promise.allSettled(
    Array.from({ length: Math.max(1, options.size) }, () => startWorker(script, data)),
  );
  const failure = started.find((item): item is PromiseRejectedResult => item.status === 'rejected');
  if (failure !== undefined) {
    await Promise.all(
      started.map((item) => (item.status === 'fulfilled' ? item.value.terminate() : undefined)),
    );
    throw failure.reason;
  }
  const slots: Slot[] = started.map((item) => ({
    worker: (item as PromiseFulfilledResult<Worker>).value,
    pending: new Map(),
    pendingBytes: 0,
    conversations: 0,
  }));
  const pool: PoolState = {
    script,
    data,
    slots,
    routes: new LruMap({
      capacity: options.capacity * slots.length,
      onEvict: (_key, slot) => {
        slot.conversations--;
      },
    }),
    nextId: 0,
    closing: false,
  };
  for (const slot of slots) listen(pool, slot);
  return {
    step: (input, signal) => safeStep(() => route(pool, input, signal), input.bytes, signal),
    usage: (key, promptTokens) => {
      pool.routes
        .peek(key)
        ?.worker.postMessage({ type: 'usage', key, promptTokens } satisfies ToCompactionWorker);
    },
    close: async () => {
      pool.closing = true;
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
