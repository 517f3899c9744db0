import type { Transcript } from '../../model/transcript.js';
import { createSummarizerChain, type SummarizerChain } from '../../summarizer/chain/summarizer-chain.js';
import { createExtractiveSummarizer } from '../../summarizer/extractive/extractive-summarizer.js';
import type { CompactionResult, CompressOptions } from '../context-engine.js';
import { CompressorEngine } from './compressor-engine.js';
import type { CompressorOptions } from './options.js';
import type { SummarizeFunction, SummaryOutcome } from './summary-outcome.js';

/**
 * Creates the compressor engine. Without `model`, every checkpoint comes from the extractive summarizer, so
 * it works offline with zero setup; with models, the chain is summary model → main model → extractive, with
 * cooldowns, and refused credentials abort the pass instead of degrading silently.
 */
export function createCompressor(options: CompressorOptions = {}): CompressorEngine {
  const chain = createSummarizerChain({
    ...(options.summaryModel === undefined ? {} : { summary: options.summaryModel }),
    ...(options.model === undefined ? {} : { main: options.model }),
    extractive: options.extractive ?? createExtractiveSummarizer(),
    // The only clock the engine reads: cooldowns are about wall time by nature. Tests inject their own.
    now: options.now ?? (() => Date.now()),
  });
  return new CompressorEngine(options, {
    summarize: chainSummarize(chain),
    resetSummarizer: () => chain.reset(),
  });
}

/** Adapts a summarizer chain to the engine: a standing auth/quota failure aborts, any other outcome is text. */
export function chainSummarize(chain: SummarizerChain): SummarizeFunction {
  return async (request, signal): Promise<SummaryOutcome> => {
    try {
      const result = await chain.summarize(request, signal === undefined ? {} : { signal });
      if (result.sticky !== undefined) {
        return {
          kind: 'abort',
          errors: [
            ...result.errors,
            `${result.sticky.failure} failure on ${result.sticky.summarizer}: check the API key and quota`,
          ],
        };
      }
      return { kind: 'summary', result: result.summary, errors: result.errors };
    } catch (error) {
      if (signal?.aborted === true) throw error;
      return { kind: 'failed', errors: [`summarizer failed: ${(error as Error).message}`] };
    }
  };
}

/**
 * Compacts a transcript once with a fresh compressor: the one-call API for scripts and the CLI. `force`
 * defaults to true here (the caller asked for it); pass `force: false` to compact only above the threshold.
 */
export function compact(
  transcript: Transcript,
  options: CompressorOptions & CompressOptions = {},
): Promise<CompactionResult> {
  const { focusTopic, currentTokens, force, signal, ...engineOptions } = options;
  return createCompressor(engineOptions).compress(transcript, {
    force: force ?? true,
    ...(focusTopic === undefined ? {} : { focusTopic }),
    ...(currentTokens === undefined ? {} : { currentTokens }),
    ...(signal === undefined ? {} : { signal }),
  });
}
