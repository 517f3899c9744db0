import { createOpenAI } from '@ai-sdk/openai';
import { type ModelMessage, tool } from 'ai';
import { z } from 'zod';
import { getCodec } from '../../../src/codecs/registry.js';
import { verifyTranscript } from '../../../src/model/verify.js';
import {
  type LoopbackProvider,
  type LoopbackRequest,
  loopbackReplies,
  startLoopbackProvider,
} from '../../../src/testing.js';
import { createRoughCounter } from '../../../src/tokens/rough-counter.js';

/** The user request every agent run starts from; it must reach the model verbatim on every step. */
export const REQUEST = 'Read every module under src/ and tell me which one parses the config file.';

/** A chat model pointed at a loopback provider. */
export function chatModel(server: LoopbackProvider) {
  return createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-loopback-test' }).chat('loopback-model');
}

/**
 * A provider that asks for `steps` file reads, one per step, then answers `done`. Each reply reports a prompt
 * size, so engines learn from real usage.
 */
export async function startAgentProvider(steps: number): Promise<LoopbackProvider> {
  return startLoopbackProvider({
    script: (request, index) => {
      // A plausible prompt size (about four characters a token), so engines calibrate on sane figures.
      const usage = { input: Math.ceil(JSON.stringify(request.body).length / 4), output: 20 };
      return index < steps
        ? {
            kind: 'tool-calls',
            calls: [
              { id: `call_${index}`, name: 'read_file', arguments: { path: `src/module-${index}.ts` } },
            ],
            usage,
          }
        : loopbackReplies.text('done', usage);
    },
  });
}

/** A file-reading tool whose outputs are large and distinct (about 1,200 tokens each). */
export const tools = {
  read_file: tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }: { path: string }) =>
      Array.from(
        { length: 80 },
        (_, line) => `${path}:${line + 1} export const value${line} = ${line};`,
      ).join('\n'),
  }),
};

/** The first messages of an agent run. */
export function initialMessages(): ModelMessage[] {
  return [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: REQUEST },
  ];
}

/** The chat request bodies the provider received (the summaries' requests excluded). */
export function chatBodies(server: LoopbackProvider): { messages: unknown[] }[] {
  return server.requests.map((request: LoopbackRequest) => request.body as { messages: unknown[] });
}

/** The rough token size of an OpenAI request body's messages. */
export function promptTokens(body: unknown): number {
  return createRoughCounter().countTranscript(getCodec('openai').decode(body).value);
}

/** Violations of provider validity in one request body: tool pairs, roles, parts. */
export function violationsOf(body: unknown) {
  return verifyTranscript(getCodec('openai').decode(body).value);
}

/** Texts of the user messages of an OpenAI request body. */
export function userTexts(body: { messages: unknown[] }): string[] {
  return body.messages
    .filter((message) => (message as { role: string }).role === 'user')
    .map((message) => {
      const content = (message as { content: unknown }).content;
      return typeof content === 'string' ? content : JSON.stringify(content);
    });
}

/** Violations of provider validity in AI SDK messages. */
export function aiSdkViolations(messages: readonly ModelMessage[]) {
  return verifyTranscript(getCodec('ai-sdk').decode(messages).value);
}

/** The rough token size of AI SDK messages. */
export function aiSdkTokens(messages: readonly ModelMessage[]): number {
  return createRoughCounter().countTranscript(getCodec('ai-sdk').decode(messages).value);
}

/** An agent history of `steps` file reads with outputs of `outputChars` characters, then `request`. */
export function toolHistory(steps: number, outputChars: number, request = REQUEST): ModelMessage[] {
  const history: ModelMessage[] = initialMessages();
  for (let index = 0; index < steps; index++) {
    const input = { path: `src/module-${index}.ts` };
    history.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: `c${index}`, toolName: 'read_file', input }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `c${index}`,
            toolName: 'read_file',
            output: { type: 'text', value: `// module ${index}\n${'x'.repeat(outputChars)}` },
          },
        ],
      },
    );
  }
  history.push({ role: 'assistant', content: 'I read them all.' }, { role: 'user', content: request });
  return history;
}
