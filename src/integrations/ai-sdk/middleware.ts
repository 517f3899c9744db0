import type { LanguageModelMiddleware } from 'ai';
import { compactOrSmallest, type WindowOverflow } from '../../engines/best-effort.js';
import type { CompactionReport } from '../../engines/compaction-report.js';
import { createCompressor } from '../../engines/compressor/create-compressor.js';
import { COMPRESSOR_DEFAULTS } from '../../engines/compressor/options.js';
import { createRuleEngine } from '../../engines/rules/create-rule-engine.js';
import type { RuleEngineOptions } from '../../engines/rules/options.js';
import { computeThreshold } from '../../engines/threshold.js';
import { CondenseError } from '../../errors/condense-error.js';
import type { Transcript } from '../../model/transcript.js';
import { createRoughCounter } from '../../tokens/rough-counter.js';
import { type PruneToolOutputsOptions, pruneToolOutputs } from '../../transforms/prune-tool-outputs.js';
import { decodeMessages, encodeMessages } from './ai-sdk-messages.js';
import { PrefixCache } from './prefix-cache.js';
import { type ModelPrompt, toModelPrompt } from './prompt-messages.js';

/** What a middleware compaction did: the rules engine's report, or the pruning counts. */
export type MiddlewareCompaction =
  | {
      readonly engine: 'rules';
      readonly report: CompactionReport;
      /**
       * Set when even the strictest rules and an extractive checkpoint leave the prompt over the window; the
       * smallest result is sent anyway.
       */
      readonly overflow?: WindowOverflow;
      /** The rules alone could not fit the window, so older steps were folded into an extractive checkpoint. */
      readonly folded?: boolean;
    }
  | {
      readonly engine: 'pruning';
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      readonly report: ReturnType<typeof pruneToolOutputs>['report'];
    };

interface SharedOptions {
  /** Compacted prefixes remembered; the least recently used is forgotten first. @default 64 */
  readonly cacheSize?: number;
  /**
   * Called after each compaction that changed the prompt (not for prompts served from the cache), and when a
   * prompt past the window could not be made any smaller (`overflow` set; the prompt goes out as it was).
   */
  readonly onCompaction?: (compaction: MiddlewareCompaction) => void;
}

/**
 * Options of {@link condenseMiddleware}: a deterministic engine only, because middleware keeps no conversation
 * state — `rules` (zero inference; its own trigger threshold) or `pruning` (old tool outputs digested,
 * deduplicated and shortened once the prompt crosses `thresholdPercent` of `contextLength`).
 */
export type CondenseMiddlewareOptions = SharedOptions &
  (
    | { readonly engine?: 'rules'; readonly engineOptions?: RuleEngineOptions }
    | {
        readonly engine: 'pruning';
        readonly engineOptions?: PruneToolOutputsOptions & {
          /** @default COMPRESSOR_DEFAULTS.contextLength */
          readonly contextLength?: number;
          /** Share of the window at which pruning starts (Hermes' threshold arithmetic). @default 0.5 */
          readonly thresholdPercent?: number;
        };
      }
  );

/**
 * Language model middleware for `wrapLanguageModel` that compacts the prompt deterministically before every
 * call. A cache keyed by the prompt's prefix makes a prompt that grew by a few messages reuse the same compacted
 * head, and the same prompt always produce the same bytes, so provider prompt caches stay warm. Summarizing
 * engines need per-conversation state: use {@link condensePrepareStep} for those.
 *
 * @example
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware: condenseMiddleware({ engine: 'rules' }) });
 */
export function condenseMiddleware(options: CondenseMiddlewareOptions = {}): LanguageModelMiddleware {
  const compact = compactorFor(options);
  const cache = new PrefixCache<ModelPrompt[number]>(options.cacheSize ?? 64);
  return {
    specificationVersion: 'v3',
    async transformParams({ params }) {
      const { messages: spliced, reused } = cache.splice(params.prompt);
      const compacted = await compact(decodeMessages(spliced));
      const unchanged = reused > 0 ? { ...params, prompt: [...spliced] } : params;
      if (compacted === undefined) return unchanged;
      if (compacted.transcript === undefined) {
        options.onCompaction?.(compacted.compaction);
        return unchanged;
      }
      const prompt = toModelPrompt(encodeMessages(compacted.transcript));
      cache.store(params.prompt, prompt);
      options.onCompaction?.(compacted.compaction);
      return { ...params, prompt };
    },
  };
}

/** What a compactor made: a smaller transcript, or only a report (a prompt past the window left as it was). */
type Compactor = (
  transcript: Transcript,
) => Promise<{ readonly transcript?: Transcript; readonly compaction: MiddlewareCompaction } | undefined>;

function compactorFor(options: CondenseMiddlewareOptions): Compactor {
  const engine: string = options.engine ?? 'rules';
  if (options.engine === 'pruning') return pruningCompactor(options.engineOptions ?? {});
  if (engine !== 'rules') {
    throw new CondenseError({
      code: 'INVALID_OPTIONS',
      message: `condenseMiddleware cannot use the "${engine}" engine: middleware keeps no conversation state, so only deterministic engines (rules, pruning) fit`,
      hint: 'use condensePrepareStep for the compressor or your own engine',
    });
  }
  const ruleOptions = options.engineOptions ?? {};
  // Built once up front so invalid options fail when the middleware is made, not on the first call.
  createRuleEngine(ruleOptions);
  return async (transcript) => {
    // A fresh engine per call: no anti-thrash memory, so the same prompt always compacts the same way.
    const rules = createRuleEngine(ruleOptions);
    if (!rules.shouldCompressPreflight(transcript)) return undefined;
    const ruled = await compactOrSmallest(rules, transcript);
    // Past the window, one-line records of collapsed steps still pile up: fold what the rules left into an
    // extractive checkpoint (no model, same input gives the same bytes; a later pass updates the checkpoint it
    // finds in the prompt). Only then is a prompt sent over the window, and reported.
    const { result, overflow } =
      ruled.overflow === undefined
        ? ruled
        : await foldPastWindow(ruled.result.transcript, ruleOptions, rules);
    const compaction: MiddlewareCompaction = {
      engine: 'rules',
      report: result.report,
      ...(overflow === undefined ? {} : { overflow }),
      ...(ruled.overflow === undefined ? {} : { folded: true }),
    };
    if (result.report.aborted || result.report.savings.tokens <= 0) {
      // Nothing smaller to send: a prompt past the window still goes out, but never without a word.
      return overflow === undefined ? undefined : { compaction };
    }
    return { transcript: result.transcript, compaction };
  };
}

async function foldPastWindow(
  transcript: Transcript,
  ruleOptions: RuleEngineOptions,
  rules: ReturnType<typeof createRuleEngine>,
): ReturnType<typeof compactOrSmallest> {
  const compressor = createCompressor({
    contextLength: rules.status().contextLength,
    ...(ruleOptions.maxOutputTokens === undefined ? {} : { maxOutputTokens: ruleOptions.maxOutputTokens }),
    ...(ruleOptions.counter === undefined ? {} : { counter: ruleOptions.counter }),
  });
  return compactOrSmallest(compressor, transcript, { force: true });
}

function pruningCompactor(
  options: NonNullable<Extract<CondenseMiddlewareOptions, { engine: 'pruning' }>['engineOptions']>,
): Compactor {
  const { contextLength, thresholdPercent, ...pruneOptions } = options;
  const counter = pruneOptions.counter ?? createRoughCounter();
  const threshold = computeThreshold({
    contextLength: contextLength ?? COMPRESSOR_DEFAULTS.contextLength,
    thresholdPercent: thresholdPercent ?? 0.5,
  });
  return async (transcript) => {
    const tokensBefore = counter.countTranscript(transcript);
    if (tokensBefore < threshold) return undefined;
    const pruned = pruneToolOutputs(transcript.messages, { ...pruneOptions, counter });
    if (pruned.messages === transcript.messages) return undefined;
    const after: Transcript = { ...transcript, messages: pruned.messages };
    return {
      transcript: after,
      compaction: {
        engine: 'pruning',
        tokensBefore,
        tokensAfter: counter.countTranscript(after),
        report: pruned.report,
      },
    };
  };
}
