import type { Message } from '../../src/model/message.js';
import { createModelSummarizer, type ModelSummarizerOptions } from '../../src/summarizer/index.js';
import type { SummaryRequest } from '../../src/summarizer/summarizer.js';
import type { LoopbackProvider } from '../../src/testing.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';

/** The rough counter every summarizer test uses. */
export const counter = createRoughCounter();

/** A GitHub-token-shaped fake secret, assembled at run time so no token literal sits in the repository. */
export const FAKE_TOKEN = ['gh', 'p_', 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2'].join('');

/** A summary request over `messages` with a generous budget. */
export function request(messages: readonly Message[], extra: Partial<SummaryRequest> = {}): SummaryRequest {
  return { messages, targetTokens: 1500, counter, ...extra };
}

/** A model summarizer pointed at the loopback server, with recorded (instant) sleeps. */
export function loopbackSummarizer(
  server: LoopbackProvider,
  options: Partial<ModelSummarizerOptions> & { readonly provider?: string } = {},
): { summarizer: ReturnType<typeof createModelSummarizer>; sleeps: number[] } {
  const sleeps: number[] = [];
  const provider = options.provider ?? 'openai';
  const modelId = provider === 'anthropic' ? 'claude-haiku-4-5' : 'gpt-4o-mini';
  const summarizer = createModelSummarizer({
    model: `${provider}:${modelId}`,
    apiKey: 'test-key',
    baseUrl: `${server.url}/v1`,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { summarizer, sleeps };
}

/** The prompt text of a recorded request (OpenAI Responses, OpenAI chat or Anthropic body). */
export function promptOf(body: unknown): string {
  const wire = body as { messages?: { content: unknown }[]; input?: { content: unknown }[] };
  const messages = wire.input ?? wire.messages ?? [];
  return messages
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : (message.content as { text?: string }[]).map((part) => part.text ?? '').join(''),
    )
    .join('\n');
}
