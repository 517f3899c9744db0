import {
  generateText,
  type LanguageModelMiddleware,
  type ModelMessage,
  type PrepareStepFunction,
  stepCountIs,
  tool,
  wrapLanguageModel,
} from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { WindowOverflow } from '../../../src/engines/best-effort.js';
import {
  type CompactionEvent,
  condenseMiddleware,
  condensePrepareStep,
  type MiddlewareCompaction,
} from '../../../src/index.js';
import type { LoopbackProvider } from '../../../src/testing.js';
import { generatedTable, LONG_LOOP } from '../../support/long-loop.js';
import {
  chatBodies,
  chatModel,
  initialMessages,
  promptTokens,
  REQUEST,
  startAgentProvider,
  userTexts,
  violationsOf,
} from './support.js';

let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const { steps: STEPS, window: WINDOW } = LONG_LOOP;

/** A file read whose output is distinct per path and about 3,000 tokens by condense's rough counter. */
const tools = {
  read_file: tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }: { path: string }) => generatedTable(path),
  }),
};

async function runLoop(options: {
  readonly prepareStep?: PrepareStepFunction<typeof tools>;
  readonly middleware?: LanguageModelMiddleware;
}): Promise<{ text: string; history: ModelMessage[] }> {
  server = await startAgentProvider(STEPS);
  const base = chatModel(server);
  const messages = initialMessages();
  const result = await generateText({
    model:
      options.middleware === undefined
        ? base
        : wrapLanguageModel({ model: base, middleware: options.middleware }),
    tools,
    messages,
    allowSystemInMessages: true,
    stopWhen: stepCountIs(STEPS + 2),
    ...(options.prepareStep === undefined ? {} : { prepareStep: options.prepareStep }),
  });
  return { text: result.text, history: [...messages, ...result.response.messages] };
}

/**
 * Every request the provider got: provider-valid, with the request verbatim, and inside the window unless the
 * integration reported that this very request could not fit.
 */
function checkEveryRequest(reportedOver: ReadonlySet<number>) {
  const bodies = chatBodies(server as LoopbackProvider);
  expect(bodies).toHaveLength(STEPS + 1);
  const sizes = bodies.map(promptTokens);
  bodies.forEach((body, index) => {
    expect(violationsOf(body), `request ${index}`).toEqual([]);
    expect(userTexts(body), `request ${index}`).toContain(REQUEST);
    if (!reportedOver.has(index)) expect(sizes[index], `request ${index}`).toBeLessThanOrEqual(WINDOW);
  });
  return sizes;
}

describe('a 200-step tool loop with 3k-token outputs in a 16K window', () => {
  it('condensePrepareStep (compressor, extractive checkpoints) never sends a prompt over the window', async () => {
    const events: CompactionEvent[] = [];
    const condense = condensePrepareStep({
      engineOptions: { contextLength: WINDOW },
      onCompaction: (event) => void events.push(event),
    });
    const run = await runLoop({ prepareStep: condense });
    expect(run.text).toBe('done');
    const over = new Set(
      events.filter((event) => event.overflow !== undefined).map((event) => event.stepNumber),
    );
    const sizes = checkEveryRequest(over);
    // Nothing here is too big to fit (a 3k output, a short request), so no request may even claim to be over.
    expect(over.size).toBe(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WINDOW);
    expect(events.length).toBeGreaterThan(10);
    expect(events.every((event) => event.report.summary.source !== 'model')).toBe(true);
  });

  it('condenseMiddleware (rules) never sends a prompt over the window: past it, older steps fold into a checkpoint', async () => {
    // The middleware sees one call per step, in order: each compaction is tagged with the request it shaped.
    const compactions: { readonly request: number; readonly compaction: MiddlewareCompaction }[] = [];
    let request = -1;
    const middleware = condenseMiddleware({
      engine: 'rules',
      engineOptions: { contextLength: WINDOW },
      onCompaction: (compaction) => void compactions.push({ request, compaction }),
    });
    const run = await runLoop({
      middleware: {
        ...middleware,
        transformParams: (call) => {
          request++;
          return (middleware.transformParams as NonNullable<LanguageModelMiddleware['transformParams']>)(
            call,
          );
        },
      },
    });
    expect(run.text).toBe('done');
    const overflows = new Map<number, WindowOverflow>();
    for (const { request: index, compaction } of compactions) {
      if (compaction.engine === 'rules' && compaction.overflow !== undefined) {
        overflows.set(index, compaction.overflow);
        expect(compaction.report.notes.some((note) => note.startsWith('over the window'))).toBe(true);
      }
    }
    const sizes = checkEveryRequest(new Set(overflows.keys()));
    for (const [index, overflow] of overflows) {
      // The figure reported is the one sent (within the codecs' rounding), and it is past the window.
      expect(overflow.limit).toBe(WINDOW);
      expect(Math.abs((sizes[index] as number) - overflow.tokens)).toBeLessThan(100);
    }
    expect(compactions.length).toBeGreaterThan(10);
    // Nothing here is too big to fit: the rules make room first, a checkpoint when they cannot.
    expect(overflows.size).toBe(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WINDOW);
    expect(compactions.some(({ compaction }) => compaction.engine === 'rules' && compaction.folded)).toBe(
      true,
    );
  });
});
