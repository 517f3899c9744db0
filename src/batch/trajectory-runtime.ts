import { loadTokenizerFile } from '../io/load-tokenizer-file.js';
import { defined } from '../model/defined.js';
import { createSummarizerChain } from '../summarizer/chain/summarizer-chain.js';
import { createExtractiveSummarizer } from '../summarizer/extractive/extractive-summarizer.js';
import { createModelSummarizer } from '../summarizer/model/model-summarizer.js';
import { createTokenCounter } from '../tokens/create-token-counter.js';
import type { TrajectoryJobConfig, TrajectoryRuntime } from './trajectory-job.js';

/**
 * Builds what a thread needs to process entries: the token counter (a tokenizer.json is read from disk) and the
 * summarizer chain — the configured model first, the extractive builder when it fails or when there is none.
 * Only auth and quota failures cool the model down (their cooldown reads the wall clock: this is the edge where
 * time comes in).
 */
export async function createTrajectoryRuntime(config: TrajectoryJobConfig): Promise<TrajectoryRuntime> {
  const counter = await createTokenCounter(config.tokenizer, { cwd: config.cwd, loadTokenizerFile });
  const redact = config.settings.redact === false ? false : (config.settings.redact ?? {});
  const extractive = createExtractiveSummarizer({ redact });
  const model = config.model;
  const summary =
    model === undefined
      ? undefined
      : createModelSummarizer({
          model: model.spec,
          ...defined({
            baseUrl: model.baseUrl,
            apiKey: model.apiKey,
            temperature: model.temperature,
            maxRetries: model.maxRetries,
            timeoutMs: model.timeoutMs,
            redact: redact === false ? undefined : redact,
          }),
        });
  const chain = createSummarizerChain({
    ...(summary === undefined ? {} : { summary }),
    extractive,
    now: () => Date.now(),
    // Every trajectory gets its own retries (Hermes' behaviour): one failed entry must not send the next
    // thousands to the extractive fallback for a minute. Refused keys and quotas still cool down.
    cooldowns: { timeoutMs: [0], transientMs: 0, defaultMs: 0 },
  });
  return { counter, chain };
}
