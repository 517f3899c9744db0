import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrajectoryJobConfig, TrajectoryRuntime } from '../../src/batch/trajectory-job.js';
import { getCodec } from '../../src/codecs/registry.js';
import { createSummarizerChain } from '../../src/summarizer/chain/summarizer-chain.js';
import { createExtractiveSummarizer } from '../../src/summarizer/extractive/extractive-summarizer.js';
import { createModelSummarizer } from '../../src/summarizer/model/model-summarizer.js';
import type { LoopbackProvider } from '../../src/testing.js';
import { agentRun, charCounter } from '../trajectory/helpers.js';

/** The task text of entry `index`: lets a test tell entries apart in any output. */
export function taskOf(index: number): string {
  return `Task number ${index}: fix the build.`;
}

/**
 * One Hermes ShareGPT line: a run of `steps` tool steps (big enough to compress when steps ≥ 6). Its tool outputs
 * carry `E<index>`, so a summary request tells which entry it is for.
 */
export function shareGptLine(index: number, steps = 8): string {
  const run = agentRun({ steps, output: 300, task: taskOf(index), label: `E${index}` });
  const entry = getCodec('sharegpt').encode({
    messages: run.messages,
    meta: {
      codec: {
        sharegpt: {
          fields: {
            conversations: null,
            timestamp: `2025-01-0${(index % 9) + 1}`,
            model: 'agent-model',
            completed: true,
          },
        },
      },
    },
  });
  return JSON.stringify(entry);
}

/** Writes `name` under `dir` (created) with the given lines. */
export function writeDataset(dir: string, name: string, lines: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** A config whose settings make 8-step runs compress and 2-step runs stay under the target (char tokens). */
export function testConfig(extra: Partial<TrajectoryJobConfig> = {}): TrajectoryJobConfig {
  return {
    settings: { targetMaxTokens: 1500, summaryTargetTokens: 100 },
    tokenizer: 'rough',
    cwd: '/',
    ...extra,
  };
}

/** A runtime on this thread: character tokens, extractive summaries. */
export function extractiveRuntime(): TrajectoryRuntime {
  return {
    counter: charCounter(),
    chain: createSummarizerChain({ extractive: createExtractiveSummarizer(), now: () => 0 }),
  };
}

/** A runtime whose summaries come from the loopback provider (no retries), falling back to extractive. */
export function loopbackRuntime(server: LoopbackProvider): TrajectoryRuntime {
  const model = createModelSummarizer({
    model: 'openai:gpt-4o-mini',
    apiKey: 'test-key',
    baseUrl: `${server.url}/v1`,
    maxRetries: 0,
    sleep: async () => undefined,
  });
  return {
    counter: charCounter(),
    chain: createSummarizerChain({
      summary: model,
      extractive: createExtractiveSummarizer(),
      now: () => 0,
      cooldowns: { timeoutMs: [0], transientMs: 0, defaultMs: 0 },
    }),
  };
}

/** The prompt a loopback request carried, as text. */
export function requestText(body: unknown): string {
  return JSON.stringify(body);
}
