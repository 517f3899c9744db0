import { CondenseError } from '../errors/condense-error.js';
import type { JsonObject } from '../model/json.js';
import type { Transcript } from '../model/transcript.js';
import { ContextOverflowError } from './budget-error.js';
import { type CompactionReport, NO_COMPRESSOR_DETAILS } from './compaction-report.js';
import type { Compactor, CompactorWindow } from './compactor.js';
import type {
  CompactionResult,
  CompressOptions,
  ContextEngine,
  EngineStatus,
  EngineTool,
  ModelInfo,
  ResponseUsage,
} from './context-engine.js';
import { keptProvenance } from './provenance.js';
import { irreducibleTokens, windowLimit } from './window.js';

/** Savings under this share count as an ineffective pass. */
const INEFFECTIVE_SAVINGS_PERCENT = 10;
/** Strikes in a row (weak passes, real prompts still over, fallback markers) that pause automatic compaction. */
const BLOCK_AFTER_STRIKES = 2;

/**
 * A context engine made of a {@link Compactor} and the bookkeeping every engine shares: when a pass runs (at the
 * threshold, or forced, or always past the window, even while paused, and then saying so), the prompt size
 * learnt from responses, and the anti-thrash pauses (two weak passes, two real prompts still over the threshold
 * right after a compaction, or two fallback markers, until a forced pass). It keeps the output inside the window
 * or raises `BUDGET_UNREACHABLE` with the smallest result. Nothing outside writes to its state.
 */
export class GovernedEngine implements ContextEngine {
  readonly name: string;
  readonly #compactor: Compactor;
  #window: CompactorWindow;
  #compactions = 0;
  #lastPromptTokens: number | undefined;
  /** Consecutive passes that saved under 10 % (or nothing). */
  #weakPasses = 0;
  /** Consecutive real prompts still over the threshold right after a compaction. */
  #overAfterCompaction = 0;
  /** Consecutive passes that could only write a fallback marker. */
  #fallbackStreak = 0;
  #awaitingVerdict = false;

  constructor(compactor: Compactor) {
    this.#compactor = compactor;
    this.name = compactor.name;
    this.#window = compactor.window();
  }

  /** The prompt size at which automatic compaction triggers. */
  get thresholdTokens(): number {
    return this.#window.thresholdTokens;
  }

  shouldCompress(promptTokens?: number): boolean {
    const tokens = promptTokens ?? this.#lastPromptTokens;
    if (this.#compactor.disabled?.() !== undefined || tokens === undefined) return false;
    // A pause only ever skips optional passes: past the window, compaction is mandatory.
    if (tokens > this.#limit()) return true;
    return tokens >= this.#window.thresholdTokens && this.#pausedReason() === undefined;
  }

  shouldCompressPreflight(transcript: Transcript): boolean {
    return this.shouldCompress(this.#compactor.counter.countTranscript(transcript));
  }

  hasContentToCompress(transcript: Transcript): boolean {
    return this.#compactor.hasContentToCompress(transcript);
  }

  async compress(transcript: Transcript, options: CompressOptions = {}): Promise<CompactionResult> {
    const force = options.force === true;
    const threshold = this.#window.thresholdTokens;
    const limit = this.#limit();
    const counted = this.#compactor.counter.countTranscript(transcript);
    const tokens = options.currentTokens ?? counted;
    const overWindow = Math.max(tokens, counted) > limit;
    if (!force) {
      // Past the window a pause does not hold, but a configuration that turned automatic compaction off does.
      const skip =
        this.#compactor.disabled?.()?.reason ??
        (overWindow
          ? undefined
          : (this.#pausedReason() ??
            (tokens < threshold ? `below the threshold (${tokens} < ${threshold} tokens)` : undefined)));
      if (skip !== undefined) return this.#idle(transcript, counted, tokens, skip);
    }
    // A manual compaction is the user asking to retry now: forget cooldowns (Hermes clears them on force).
    if (force) this.#compactor.onForce?.();
    // Read before the pass: a pass that saves enough lifts the pause, and the report must still say why it ran.
    const paused = this.#pausedReason();
    const pass = await this.#compactor.compact(transcript, {
      thresholdTokens: threshold,
      limitTokens: limit,
      compactions: this.#compactions,
      force,
      focusTopic: options.focusTopic,
      signal: options.signal,
    });
    this.#record(pass.report);
    const result: CompactionResult =
      !force && overWindow && paused !== undefined
        ? {
            transcript: pass.transcript,
            report: {
              ...pass.report,
              notes: [
                ...pass.report.notes,
                `compacted although paused, because the prompt was past the window (${paused})`,
              ],
            },
          }
        : pass;
    if (!result.report.aborted && result.report.tokensAfter.rough > limit) {
      throw new ContextOverflowError({
        tokens: result.report.tokensAfter.rough,
        limit,
        irreducible: irreducibleTokens(transcript.messages, this.#compactor.counter),
        best: result,
      });
    }
    return result;
  }

  updateFromResponse(usage: ResponseUsage): void {
    if (usage.promptTokens <= 0) {
      this.#awaitingVerdict = false;
      return;
    }
    this.#lastPromptTokens = usage.promptTokens;
    if (usage.promptTokens < this.#window.thresholdTokens) this.#overAfterCompaction = 0;
    else if (this.#awaitingVerdict) this.#overAfterCompaction++;
    this.#awaitingVerdict = false;
  }

  updateModel(model: ModelInfo): void {
    const changed = model.contextLength !== this.#window.contextLength;
    this.#compactor.updateModel(model);
    this.#window = this.#compactor.window();
    this.#weakPasses = 0;
    this.#overAfterCompaction = 0;
    this.#lastPromptTokens = undefined;
    // A fallback streak is about the summarizer, not the threshold: only another window clears it.
    if (changed) this.#fallbackStreak = 0;
  }

  resetSession(): void {
    this.#compactor.resetSession?.();
    this.#compactions = 0;
    this.#lastPromptTokens = undefined;
    this.#weakPasses = 0;
    this.#overAfterCompaction = 0;
    this.#fallbackStreak = 0;
    this.#awaitingVerdict = false;
  }

  status(): EngineStatus {
    const blocked = this.#compactor.disabled?.()?.status ?? this.#pausedReason();
    return {
      name: this.name,
      thresholdTokens: this.#window.thresholdTokens,
      contextLength: this.#window.contextLength,
      compactions: this.#compactions,
      ...(this.#lastPromptTokens === undefined ? {} : { lastPromptTokens: this.#lastPromptTokens }),
      ...(blocked === undefined ? {} : { blocked }),
    };
  }

  /** The compactor this engine governs, for subclasses that expose its tools or settings. */
  protected get compactor(): Compactor {
    return this.#compactor;
  }

  #limit(): number {
    return windowLimit(this.#window.contextLength, this.#window.maxOutputTokens);
  }

  #pausedReason(): string | undefined {
    if (this.#weakPasses >= BLOCK_AFTER_STRIKES) {
      return `automatic compaction is paused: the last ${this.#weakPasses} passes saved under ${INEFFECTIVE_SAVINGS_PERCENT} %; compact manually (force) to retry`;
    }
    if (this.#overAfterCompaction >= BLOCK_AFTER_STRIKES) {
      return `automatic compaction is paused: after the last ${this.#overAfterCompaction} compactions the real prompt was still over the threshold; compact manually (force) to retry`;
    }
    if (this.#fallbackStreak >= BLOCK_AFTER_STRIKES) {
      return `automatic compaction is paused: the last ${this.#fallbackStreak} passes could not make a summary; compact manually (force) to retry`;
    }
    return undefined;
  }

  #record(report: CompactionReport): void {
    if (report.aborted) return;
    if (report.madeProgress) {
      this.#compactions++;
      this.#awaitingVerdict = true;
      this.#lastPromptTokens = undefined;
      this.#fallbackStreak = report.summary.source === 'fallback-marker' ? this.#fallbackStreak + 1 : 0;
    }
    const weak = !report.madeProgress || report.savings.percent < INEFFECTIVE_SAVINGS_PERCENT;
    this.#weakPasses = weak ? this.#weakPasses + 1 : 0;
  }

  #idle(transcript: Transcript, rough: number, tokens: number, reason: string): CompactionResult {
    const report =
      this.#compactor.idleReport?.(transcript, rough, reason) ??
      idleReport(this.name, transcript, rough, reason);
    return {
      transcript,
      report: {
        ...report,
        notes: tokens === rough ? [] : [`measured prompt: ${tokens} tokens`],
        // The transcript comes back as it is: every message kept.
        provenance: report.provenance ?? keptProvenance(transcript.messages),
      },
    };
  }
}

/** A governed engine that also offers its compactor's tools to the agent. */
export class GovernedEngineWithTools extends GovernedEngine {
  tools(): readonly EngineTool[] {
    return this.compactor.tools?.() ?? [];
  }

  async handleToolCall(name: string, args: JsonObject): Promise<string> {
    const handle = this.compactor.handleToolCall;
    if (handle === undefined) {
      throw new CondenseError({
        code: 'INVALID_OPTIONS',
        message: `the ${this.name} engine has no tool named "${name}"`,
        hint: 'call only the tools the engine lists',
      });
    }
    return handle.call(this.compactor, name, args);
  }
}

/**
 * Makes a context engine of a compactor: the governor supplies triggering, usage learning, anti-thrash pauses
 * and the window check, so a third-party engine only writes `compact`. The engine offers the compactor's tools
 * when it has any.
 */
export function governEngine(compactor: Compactor): GovernedEngine {
  return compactor.tools === undefined
    ? new GovernedEngine(compactor)
    : new GovernedEngineWithTools(compactor);
}

/** The report of a pass that did not run: nothing removed, nothing saved, and why. */
export function idleReport(
  engine: string,
  transcript: Transcript,
  rough: number,
  reason: string,
): CompactionReport {
  return {
    engine,
    tokensBefore: { rough },
    tokensAfter: { rough },
    messagesBefore: transcript.messages.length,
    messagesAfter: transcript.messages.length,
    ...NO_COMPRESSOR_DETAILS,
    dropped: 0,
    errors: [],
    savings: { tokens: 0, percent: 0 },
    madeProgress: false,
    aborted: false,
    reason,
    notes: [],
  };
}
