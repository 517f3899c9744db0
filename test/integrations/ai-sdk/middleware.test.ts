import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { condenseMiddleware, isCondenseError, type MiddlewareCompaction } from '../../../src/index.js';
import type { LoopbackProvider } from '../../../src/testing.js';
import {
  chatBodies,
  chatModel,
  initialMessages,
  promptTokens,
  REQUEST,
  startAgentProvider,
  tools,
  userTexts,
  violationsOf,
} from './support.js';

let server: LoopbackProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const STEPS = 12;

async function agentWith(middleware: ReturnType<typeof condenseMiddleware>, stream = false) {
  server = await startAgentProvider(STEPS);
  const settings = {
    model: wrapLanguageModel({ model: chatModel(server), middleware }),
    tools,
    messages: initialMessages(),
    allowSystemInMessages: true,
    stopWhen: stepCountIs(STEPS + 2),
  };
  const text = stream ? await streamText(settings).text : (await generateText(settings)).text;
  return { text, bodies: chatBodies(server) };
}

describe('condenseMiddleware with wrapLanguageModel', () => {
  it('keeps a rules-compacted tool loop valid, with the request verbatim and every prompt inside the window', async () => {
    const compactions: MiddlewareCompaction[] = [];
    const { text, bodies } = await agentWith(
      condenseMiddleware({
        engine: 'rules',
        engineOptions: { contextLength: 8_000, protectLastNTurns: 2 },
        onCompaction: (compaction) => void compactions.push(compaction),
      }),
    );
    expect(text).toBe('done');
    expect(compactions.length).toBeGreaterThan(0);
    for (const body of bodies) {
      expect(violationsOf(body)).toEqual([]);
      expect(userTexts(body)).toContain(REQUEST);
    }
    expect(Math.max(...bodies.map(promptTokens))).toBeLessThan(8_000);
  });

  it('sends byte-identical prompt prefixes from one step to the next until the next compaction', async () => {
    const { bodies } = await agentWith(
      condenseMiddleware({ engine: 'rules', engineOptions: { contextLength: 8_000, protectLastNTurns: 2 } }),
      true,
    );
    let stablePairs = 0;
    for (let index = 1; index < bodies.length; index++) {
      const previous = (bodies[index - 1] as { messages: unknown[] }).messages;
      const current = (bodies[index] as { messages: unknown[] }).messages;
      if (current.length !== previous.length + 2) continue;
      expect(JSON.stringify(current.slice(0, previous.length))).toBe(JSON.stringify(previous));
      stablePairs++;
    }
    expect(stablePairs).toBeGreaterThan(2);
  });

  it('gives the same prompt the same bytes on every call', async () => {
    const middleware = condenseMiddleware({
      engine: 'rules',
      engineOptions: { contextLength: 8_000, protectLastNTurns: 2 },
    });
    const first = await agentWith(middleware);
    await server?.close();
    const second = await agentWith(middleware);
    expect(second.bodies.map((body) => JSON.stringify(body))).toEqual(
      first.bodies.map((body) => JSON.stringify(body)),
    );
  });

  it('prunes old tool outputs in pruning mode and leaves small prompts alone', async () => {
    const compactions: MiddlewareCompaction[] = [];
    const { bodies } = await agentWith(
      condenseMiddleware({
        engine: 'pruning',
        engineOptions: { contextLength: 8_000, protectLastN: 4 },
        onCompaction: (compaction) => void compactions.push(compaction),
      }),
    );
    expect(compactions.length).toBeGreaterThan(0);
    for (const compaction of compactions) {
      expect(compaction.engine).toBe('pruning');
      if (compaction.engine === 'pruning')
        expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
    }
    expect(bodies.every((body) => violationsOf(body).length === 0)).toBe(true);
    // The first prompts are under the threshold and go out untouched.
    expect(compactions.length).toBeLessThan(bodies.length);
  });

  it('refuses a summarizing engine, which needs per-conversation state', () => {
    let caught: unknown;
    try {
      condenseMiddleware({ engine: 'compressor' } as unknown as Parameters<typeof condenseMiddleware>[0]);
    } catch (error) {
      caught = error;
    }
    expect(isCondenseError(caught) && caught.code).toBe('INVALID_OPTIONS');
    expect(isCondenseError(caught) && caught.hint).toContain('condensePrepareStep');
  });

  it('rejects invalid rule options when the middleware is made', () => {
    expect(() => condenseMiddleware({ engine: 'rules', engineOptions: { triggerThreshold: 7 } })).toThrow(
      /threshold/i,
    );
  });

  it('reports a prompt past the window that it cannot make smaller instead of sending it silently', async () => {
    const compactions: MiddlewareCompaction[] = [];
    const middleware = condenseMiddleware({
      engine: 'rules',
      engineOptions: { contextLength: 1_000 },
      onCompaction: (compaction) => void compactions.push(compaction),
    });
    const request = 'Rename every handler in src/ and keep the tests green. '.repeat(200);
    const prompt = [
      { role: 'system', content: 'You are a careful coding agent.' },
      { role: 'user', content: [{ type: 'text', text: 'Hello.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello, what shall I do?' }] },
      { role: 'user', content: [{ type: 'text', text: request }] },
    ];
    const transform = middleware.transformParams as NonNullable<typeof middleware.transformParams>;
    const params = { prompt } as unknown as Parameters<typeof transform>[0]['params'];
    const out = await transform({ params, type: 'generate', model: {} as never });
    // Nothing can be folded: the request alone is past the window. It goes out as it was, and says so.
    expect(out.prompt).toBe(params.prompt);
    expect(compactions).toHaveLength(1);
    const [compaction] = compactions;
    expect(compaction?.engine === 'rules' && compaction.overflow?.limit).toBe(1_000);
    expect(compaction?.engine === 'rules' && compaction.overflow?.tokens).toBeGreaterThan(1_000);
  });
});
