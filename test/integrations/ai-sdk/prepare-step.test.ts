import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, type ModelMessage, stepCountIs, streamText, ToolLoopAgent } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { getCodec } from '../../../src/codecs/registry.js';
import { type CompactionEvent, condensePrepareStep } from '../../../src/index.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import type { LoopbackProvider } from '../../../src/testing.js';
import {
  aiSdkTokens,
  aiSdkViolations,
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

const STEPS = 14;

async function runAgent(
  engine: 'rules' | 'compressor',
  options: { stream?: boolean; events?: CompactionEvent[] } = {},
) {
  server = await startAgentProvider(STEPS);
  const events = options.events ?? [];
  const condense =
    engine === 'rules'
      ? condensePrepareStep({
          engine: 'rules',
          engineOptions: { contextLength: 8_000, protectLastNTurns: 2 },
          onCompaction: (event) => void events.push(event),
        })
      : condensePrepareStep({
          engineOptions: { contextLength: 12_000 },
          onCompaction: (event) => void events.push(event),
        });
  const messages = initialMessages();
  const snapshot = structuredClone(messages);
  const settings = {
    model: chatModel(server),
    tools,
    messages,
    prepareStep: condense,
    stopWhen: stepCountIs(STEPS + 2),
    allowSystemInMessages: true,
  };
  let text: string;
  let responseMessages: ModelMessage[];
  if (options.stream === true) {
    const result = streamText(settings);
    text = await result.text;
    responseMessages = (await result.response).messages;
  } else {
    const result = await generateText(settings);
    text = result.text;
    responseMessages = result.response.messages;
  }
  return { condense, events, text, history: [...messages, ...responseMessages], messages, snapshot };
}

/** Per request, the message count an uncompacted run would have sent: system, user, and two per step. */
const fullCount = (index: number) => 2 + 2 * index;

describe('condensePrepareStep in a real AI SDK tool loop', () => {
  for (const engine of ['rules', 'compressor'] as const) {
    it(`keeps every request provider-valid and smaller once the ${engine} engine triggers`, async () => {
      const run = await runAgent(engine);
      expect(run.text).toBe('done');
      const bodies = chatBodies(server as LoopbackProvider);
      expect(bodies).toHaveLength(STEPS + 1);
      for (const body of bodies) {
        expect(violationsOf(body)).toEqual([]);
        expect(userTexts(body)).toContain(REQUEST);
      }
      expect(run.events.length).toBeGreaterThan(0);
      expect(run.events.every((event) => event.feedback.headline.startsWith('Compacted'))).toBe(true);
      const last = bodies.at(-1) as { messages: unknown[] };
      expect(last.messages.length).toBeLessThan(fullCount(STEPS));
      // Every prompt fits the window, though the run's full history does not.
      const window = engine === 'rules' ? 8_000 : 12_000;
      expect(Math.max(...bodies.map(promptTokens))).toBeLessThan(window);
      expect(aiSdkTokens(run.history)).toBeGreaterThan(window * 1.5);
      expect(run.messages).toEqual(run.snapshot);
    });
  }

  it('reuses the compacted prefix on later steps instead of compacting the same history again', async () => {
    const run = await runAgent('rules');
    const bodies = chatBodies(server as LoopbackProvider);
    let reusedSteps = 0;
    for (let index = 1; index < bodies.length; index++) {
      const previous = (bodies[index - 1] as { messages: unknown[] }).messages;
      const current = (bodies[index] as { messages: unknown[] }).messages;
      const compactedBefore = previous.length < fullCount(index - 1);
      if (!compactedBefore || current.length !== previous.length + 2) continue;
      // The earlier prompt is a byte-identical prefix of the next one: the provider's prompt cache stays warm.
      expect(current.slice(0, previous.length).map((m) => JSON.stringify(m))).toEqual(
        previous.map((m) => JSON.stringify(m)),
      );
      reusedSteps++;
    }
    expect(reusedSteps).toBeGreaterThan(0);
    // After the first compaction, each later one starts from the compacted history, never from the raw one.
    const [first, ...later] = run.events;
    expect(first?.report.messagesBefore).toBe(fullCount(first?.stepNumber ?? 0));
    expect(later.length).toBeGreaterThan(0);
    for (const event of later) expect(event.report.messagesBefore).toBeLessThan(fullCount(event.stepNumber));
  });

  it('compacts a streamed run the same way', async () => {
    const run = await runAgent('rules', { stream: true });
    expect(run.text).toBe('done');
    const bodies = chatBodies(server as LoopbackProvider);
    expect(bodies.every((body) => violationsOf(body).length === 0)).toBe(true);
    expect(run.events.length).toBeGreaterThan(0);
    expect((bodies.at(-1) as { messages: unknown[] }).messages.length).toBeLessThan(fullCount(STEPS));
  });

  it('keeps Anthropic requests valid: tool results stay right after their calls', async () => {
    server = await startAgentProvider(STEPS);
    const anthropic = createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'sk-ant-loopback' });
    const events: CompactionEvent[] = [];
    const result = await generateText({
      model: anthropic('claude-loopback'),
      system: 'You are a careful coding agent.',
      tools,
      messages: [{ role: 'user', content: REQUEST }],
      prepareStep: condensePrepareStep({
        engine: 'rules',
        engineOptions: { contextLength: 8_000, protectLastNTurns: 2 },
        onCompaction: (event) => void events.push(event),
      }),
      stopWhen: stepCountIs(STEPS + 2),
    });
    expect(result.text).toBe('done');
    expect(events.length).toBeGreaterThan(0);
    for (const request of server.requests) {
      const transcript = getCodec('anthropic').decode(request.body).value;
      expect(verifyTranscript(transcript, { provider: 'anthropic' })).toEqual([]);
      expect(JSON.stringify(request.body)).toContain(REQUEST);
    }
  });

  it('plugs into a ToolLoopAgent as its prepareStep', async () => {
    server = await startAgentProvider(STEPS);
    const events: CompactionEvent[] = [];
    const agent = new ToolLoopAgent({
      model: chatModel(server),
      instructions: 'You are a careful coding agent.',
      tools,
      stopWhen: stepCountIs(STEPS + 2),
      prepareStep: condensePrepareStep({
        engine: 'rules',
        engineOptions: { contextLength: 8_000, protectLastNTurns: 2 },
        onCompaction: (event) => void events.push(event),
      }),
    });
    const result = await agent.generate({ prompt: REQUEST });
    expect(result.text).toBe('done');
    expect(events.length).toBeGreaterThan(0);
    const bodies = chatBodies(server);
    for (const body of bodies) {
      expect(violationsOf(body)).toEqual([]);
      expect(userTexts(body)).toContain(REQUEST);
    }
    expect(Math.max(...bodies.map(promptTokens))).toBeLessThan(8_000);
  });

  it('gives the app a compacted history that holds the checkpoint and ends where the run ended', async () => {
    const run = await runAgent('compressor');
    const compacted = run.condense.compactedHistory(run.history);
    expect(compacted.length).toBeLessThan(run.history.length);
    expect(compacted.at(-1)).toEqual(run.history.at(-1));
    expect(JSON.stringify(compacted)).toContain(REQUEST);
    const event = run.events.at(-1) as CompactionEvent;
    expect(event.report.summary.source).toBe('extractive');
    expect(aiSdkViolations(compacted)).toEqual([]);
  });

  it('compacts on demand with a focus topic, below the threshold', async () => {
    const condense = condensePrepareStep({ engine: 'rules', engineOptions: { protectLastNTurns: 1 } });
    const history: ModelMessage[] = [...initialMessages()];
    for (let index = 0; index < 6; index++) {
      history.push(
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: `c${index}`,
              toolName: 'read_file',
              input: { path: `f${index}.ts` },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: `c${index}`,
              toolName: 'read_file',
              output: { type: 'text', value: 'line\n'.repeat(400) },
            },
          ],
        },
      );
    }
    const event = await condense.compactNow(history, { focusTopic: 'config parsing' });
    expect(event.feedback.noop).toBe(false);
    expect(JSON.stringify(event.messages).length).toBeLessThan(JSON.stringify(history).length);
    expect(condense.compactedHistory(history)).toEqual(event.messages);
    expect(condense.status(event.conversation)?.compactions).toBeGreaterThan(0);
  });

  it('runs the step on the full history and reports the error when compaction throws, if asked to', async () => {
    const errors: unknown[] = [];
    const failing = condensePrepareStep({
      engine: () => {
        throw new Error('engine exploded');
      },
      onError: (error) => void errors.push(error),
    });
    const result = await failing({
      steps: [],
      stepNumber: 0,
      model: 'unused',
      messages: initialMessages(),
      experimental_context: undefined,
    } as unknown as Parameters<typeof failing>[0]);
    expect(result).toEqual({});
    expect(String(errors[0])).toContain('engine exploded');
  });
});
