import { isCondenseError } from '../../errors/condense-error.js';
import { defaultRedactor } from '../default-redactor.js';
import type { SummarizeContext, Summarizer, SummaryRequest, SummaryResult } from '../summarizer.js';
import { isStickyFailure, isSummarizerError, type SummarizerFailure } from '../summarizer-error.js';
import { type CooldownPolicy, cooldownFor, DEFAULT_COOLDOWNS } from './cooldowns.js';

/** The model summarizers of a chain, tried in this order. */
export type ChainTier = 'summary' | 'main';

/** One step the chain took: a model tried (or skipped during its cooldown), or the extractive builder. */
export interface ChainAttempt {
  readonly tier: ChainTier | 'extractive';
  readonly summarizer: string;
  readonly outcome: 'ok' | 'failed' | 'skipped';
  readonly failure?: SummarizerFailure;
  /** Redacted error message. */
  readonly error?: string;
  /** Epoch milliseconds until which a skipped model cools down. */
  readonly coolingUntil?: number;
  /** Model requests sent by this step. */
  readonly calls: number;
}

/** A refused key or exhausted quota: the engine should stop and leave the transcript as it is. */
export interface StickyFailure {
  readonly failure: 'auth' | 'quota';
  readonly tier: ChainTier;
  readonly summarizer: string;
  readonly message: string;
}

/** What a chain produced and how. `summary` is always there (the extractive builder cannot fail). */
export interface ChainResult {
  readonly summary: SummaryResult;
  /** Which step wrote the text. */
  readonly tier: ChainTier | 'extractive';
  /** Model requests sent during this call, failed ones included. */
  readonly calls: number;
  readonly attempts: readonly ChainAttempt[];
  /** Redacted descriptions of every failure met. */
  readonly errors: readonly string[];
  /** True when a model was configured but the extractive builder wrote the text. */
  readonly fellBack: boolean;
  /**
   * Set while an auth or quota failure stands (until a model call succeeds or `reset()`): the engine should
   * abort the compaction rather than use `summary`.
   */
  readonly sticky?: StickyFailure;
}

/** Cooldown state of one model. */
export interface TierStatus {
  readonly summarizer: string;
  readonly coolingUntil?: number;
  readonly timeoutStreak: number;
  readonly lastFailure?: SummarizerFailure;
}

/** The state a chain carries between calls. */
export interface ChainStatus {
  readonly summary?: TierStatus;
  readonly main?: TierStatus;
  readonly sticky?: StickyFailure;
}

/** Options of {@link createSummarizerChain}. */
export interface SummarizerChainOptions {
  /** A cheaper model dedicated to summaries, tried first. */
  readonly summary?: Summarizer;
  /** The main model, tried when there is no summary model or it failed. */
  readonly main?: Summarizer;
  /** The model-free builder used when no model is configured, all failed, or all are cooling down. */
  readonly extractive: Summarizer;
  /** Current time in epoch milliseconds (injected: the chain reads no clock of its own). */
  readonly now: () => number;
  /** Cooldowns after failures; unspecified entries keep their defaults. */
  readonly cooldowns?: Partial<CooldownPolicy>;
}

/** A summarizer chain: `summarize` never rejects for a model failure, and keeps cooldown state between calls. */
export interface SummarizerChain {
  summarize(request: SummaryRequest, context?: SummarizeContext): Promise<ChainResult>;
  status(): ChainStatus;
  /** Clears cooldowns and the sticky failure (after the user fixed the key, or on `/compress`). */
  reset(): void;
}

interface MutableTier {
  readonly summarizer: Summarizer;
  coolingUntil: number | undefined;
  timeoutStreak: number;
  lastFailure: SummarizerFailure | undefined;
}

function tierStatus(tier: MutableTier): TierStatus {
  return {
    summarizer: tier.summarizer.name,
    timeoutStreak: tier.timeoutStreak,
    ...(tier.coolingUntil === undefined ? {} : { coolingUntil: tier.coolingUntil }),
    ...(tier.lastFailure === undefined ? {} : { lastFailure: tier.lastFailure }),
  };
}

/**
 * Combines a summary model, the main model and the extractive builder (Hermes' policy): the summary model
 * first; when it fails, the main model once; when that fails too (after each model's own retries), the
 * extractive builder. A failed model cools down (60 s; timeouts 60 s, 300 s, 900 s as they repeat; unusable
 * answers and dropped connections 30 s) and is skipped until then. Auth and quota failures are sticky: the
 * result carries them until a model call succeeds, and the engine decides to abort. Aborts from the caller's
 * signal propagate.
 */
export function createSummarizerChain(options: SummarizerChainOptions): SummarizerChain {
  const policy: CooldownPolicy = { ...DEFAULT_COOLDOWNS, ...options.cooldowns };
  const redactor = defaultRedactor();
  const make = (summarizer: Summarizer | undefined): MutableTier | undefined =>
    summarizer === undefined
      ? undefined
      : { summarizer, coolingUntil: undefined, timeoutStreak: 0, lastFailure: undefined };
  const tiers: [ChainTier, MutableTier][] = [];
  // One model configured as both is one tier: trying it twice would only double the failure.
  const sameModel = options.summary !== undefined && options.summary === options.main;
  const summaryTier = sameModel ? undefined : make(options.summary);
  const mainTier = make(options.main);
  if (summaryTier !== undefined) tiers.push(['summary', summaryTier]);
  if (mainTier !== undefined) tiers.push(['main', mainTier]);
  let sticky: StickyFailure | undefined;

  async function summarize(request: SummaryRequest, context: SummarizeContext = {}): Promise<ChainResult> {
    const attempts: ChainAttempt[] = [];
    const errors: string[] = [];
    let calls = 0;
    for (const [name, tier] of tiers) {
      const now = options.now();
      if (tier.coolingUntil !== undefined && now < tier.coolingUntil) {
        attempts.push({
          tier: name,
          summarizer: tier.summarizer.name,
          outcome: 'skipped',
          coolingUntil: tier.coolingUntil,
          calls: 0,
        });
        continue;
      }
      try {
        const summary = await tier.summarizer.summarize(request, context);
        tier.coolingUntil = undefined;
        tier.timeoutStreak = 0;
        tier.lastFailure = undefined;
        sticky = undefined;
        calls += summary.calls;
        attempts.push({ tier: name, summarizer: tier.summarizer.name, outcome: 'ok', calls: summary.calls });
        return { summary, tier: name, calls, attempts, errors, fellBack: false };
      } catch (error) {
        if (isCondenseError(error) && error.code === 'ABORTED') throw error;
        const failure: SummarizerFailure = isSummarizerError(error) ? error.failure : 'other';
        const sent = isSummarizerError(error) ? error.calls : 0;
        const message = redactor.text(error instanceof Error ? error.message : String(error)).text;
        calls += sent;
        if (failure === 'timeout') tier.timeoutStreak++;
        tier.lastFailure = failure;
        tier.coolingUntil = options.now() + cooldownFor(failure, tier.timeoutStreak, policy);
        errors.push(`${name} model ${tier.summarizer.name} failed (${failure}): ${message}`);
        attempts.push({
          tier: name,
          summarizer: tier.summarizer.name,
          outcome: 'failed',
          failure,
          error: message,
          calls: sent,
        });
        if (isStickyFailure(failure)) {
          sticky = { failure, tier: name, summarizer: tier.summarizer.name, message };
        }
      }
    }
    const summary = await options.extractive.summarize(request, context);
    attempts.push({
      tier: 'extractive',
      summarizer: options.extractive.name,
      outcome: 'ok',
      calls: summary.calls,
    });
    return {
      summary,
      tier: 'extractive',
      calls,
      attempts,
      errors,
      fellBack: tiers.length > 0,
      ...(sticky === undefined ? {} : { sticky }),
    };
  }

  return {
    summarize,
    status: () => ({
      ...(summaryTier === undefined ? {} : { summary: tierStatus(summaryTier) }),
      ...(mainTier === undefined ? {} : { main: tierStatus(mainTier) }),
      ...(sticky === undefined ? {} : { sticky }),
    }),
    reset() {
      for (const [, tier] of tiers) {
        tier.coolingUntil = undefined;
        tier.timeoutStreak = 0;
        tier.lastFailure = undefined;
      }
      sticky = undefined;
    },
  };
}
