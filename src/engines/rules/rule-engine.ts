import { CondenseError } from '../../errors/condense-error.js';
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import { createRoughCounter } from '../../tokens/rough-counter.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { ContextOverflowError } from '../budget-error.js';
import type { CompactionReport, TokenFigures } from '../compaction-report.js';
import type {
  CompactionResult,
  CompressOptions,
  ContextEngine,
  EngineStatus,
  EngineTool,
  ModelInfo,
  ResponseUsage,
} from '../context-engine.js';
import { computeThreshold } from '../threshold.js';
import { irreducibleTokens, windowLimit } from '../window.js';
import { applyRules, type OriginalPosition } from './apply-rules.js';
import { type ResolvedRuleSettings, type RuleEngineOptions, resolveRuleSettings } from './options.js';
import { protectedTailStart } from './protected-tail.js';
import { createRecallStore, RECALL_TOOL, RECALL_TOOL_NAME } from './recall.js';
import { NO_RULE_COUNTS, rulesReport } from './rules-report.js';

/** Savings under this share count as an ineffective pass (two in a row block automatic compaction). */
const INEFFECTIVE_SAVINGS_PERCENT = 10;
const BLOCK_AFTER_STRIKES = 2;

/** What the engine remembers of its last pass, to continue the same conversation. */
interface Continuation {
  readonly output: readonly Message[];
  readonly lineage: readonly OriginalPosition[];
  /** Messages of the uncompacted conversation the output stands for. */
  readonly originalLength: number;
  /** Output index where the last pass's protected tail started (final prefix in cache-friendly mode). */
  readonly tailStart: number;
}

/**
 * The zero-inference engine: deterministic rules (collapse succeeded tool pairs, truncate long outputs, drop
 * later system messages, fold assistant runs) outside a protected tail of recent steps, with a reference on
 * everything collapsed so it can be restored or recalled. It owns its state (what it collapsed, where the last
 * pass ended, anti-thrash strikes); nothing outside writes to it.
 */
export class RuleEngine implements ContextEngine {
  readonly name = 'rules';
  #settings: ResolvedRuleSettings;
  #threshold: number;
  readonly #counter: TokenCounter;
  readonly #exactCounter: TokenCounter | undefined;
  readonly #recall = createRecallStore();
  #continuation: Continuation | undefined;
  #compactions = 0;
  #lastPromptTokens: number | undefined;
  #weakPasses = 0;
  #overAfterCompaction = 0;
  #awaitingVerdict = false;

  constructor(options: RuleEngineOptions = {}) {
    this.#settings = resolveRuleSettings(options);
    this.#threshold = this.#computeThreshold();
    this.#counter = options.counter ?? createRoughCounter();
    this.#exactCounter = options.exactCounter;
  }

  /** The prompt size at which automatic compaction triggers: the trigger share of the window, no floor. */
  get thresholdTokens(): number {
    return this.#threshold;
  }

  /** The settings in force (preset and options applied). */
  get settings(): ResolvedRuleSettings {
    return this.#settings;
  }

  shouldCompress(promptTokens?: number): boolean {
    const tokens = promptTokens ?? this.#lastPromptTokens;
    if (!this.#settings.enabled || tokens === undefined) return false;
    // A pause only ever skips optional passes: past the window, compaction is mandatory.
    if (tokens > windowLimit(this.#settings.contextLength, this.#settings.maxOutputTokens)) return true;
    return tokens >= this.#threshold && this.#blockedReason() === undefined;
  }

  shouldCompressPreflight(transcript: Transcript): boolean {
    return this.shouldCompress(this.#counter.countTranscript(transcript));
  }

  hasContentToCompress(transcript: Transcript): boolean {
    const { messages } = transcript;
    const continued = this.#continued(messages);
    return (
      applyRules(messages, {
        settings: this.#settings,
        ...(continued === undefined
          ? {}
          : { originalOf: continued.originalOf, frozenUntil: continued.frozen }),
      }).messages !== messages
    );
  }

  async compress(transcript: Transcript, options: CompressOptions = {}): Promise<CompactionResult> {
    const tokens = options.currentTokens ?? this.#counter.countTranscript(transcript);
    const limit = windowLimit(this.#settings.contextLength, this.#settings.maxOutputTokens);
    const overWindow = Math.max(tokens, this.#counter.countTranscript(transcript)) > limit;
    if (options.force !== true) {
      // Past the window a pause does not hold, but a configuration that turned automatic compaction off does.
      const blocked = !this.#settings.enabled
        ? 'automatic compaction is disabled in the configuration (enabled: false); compact manually (force) to run the rules'
        : overWindow
          ? undefined
          : (this.#blockedReason() ??
            (tokens < this.#threshold
              ? `below the threshold (${tokens} < ${this.#threshold} tokens)`
              : undefined));
      if (blocked !== undefined) return this.#noop(transcript, tokens, blocked);
    }
    options.signal?.throwIfAborted();
    const { messages } = transcript;
    const continued = this.#continued(messages);
    const before = this.#figures(messages);
    // Stricter settings are only tried when the configured ones would leave the prompt past the window.
    let pass = applyRules(messages, {
      settings: this.#settings,
      ...(continued === undefined ? {} : { originalOf: continued.originalOf, frozenUntil: continued.frozen }),
    });
    let squeezed = 0;
    let size = this.#figures(pass.messages).rough;
    for (const stricter of squeezedSettings(this.#settings)) {
      if (size <= limit) break;
      const harder = applyRules(messages, { settings: stricter });
      const harderSize = this.#figures(harder.messages).rough;
      if (harderSize >= size) continue;
      pass = harder;
      size = harderSize;
      squeezed++;
    }
    let output = pass.messages;
    let after = output === messages ? before : this.#figures(output);
    const notes: string[] =
      squeezed > 0
        ? [`rules squeezed (${squeezed} step${squeezed === 1 ? '' : 's'} stricter) to fit ${limit} tokens`]
        : [];
    let reason: string | undefined;
    if (output === messages) reason = 'no rule applies outside the protected tail';
    else if (after.rough >= before.rough) {
      notes.push('the rules would not have made the transcript smaller, so it was left unchanged');
      reason = notes[0];
      output = messages;
      after = before;
    }
    const kept = output === pass.messages;
    // Continued from even when nothing changed: what was sent stays as sent in cache-friendly mode.
    this.#continuation = {
      output,
      lineage: kept ? pass.lineage : messages.map((_, index) => continued?.originalOf(index) ?? { index }),
      originalLength:
        continued === undefined
          ? messages.length
          : continued.originalLength + messages.length - continued.outputLength,
      tailStart: protectedTailStart(output, this.#settings.protectLastNTurns),
    };
    const report = rulesReport({
      input: messages,
      output,
      before,
      after,
      counts: kept ? pass.counts : NO_RULE_COUNTS,
      thresholdTokens: this.#threshold,
      preset: this.#settings.preset,
      ...(reason === undefined ? {} : { reason }),
      notes,
    });
    if (kept) this.#recall.add(pass.elements);
    this.#record(report);
    const result = {
      transcript: output === messages ? transcript : { ...transcript, messages: output },
      report,
    };
    if (after.rough > limit) {
      throw new ContextOverflowError({
        tokens: after.rough,
        limit,
        irreducible: irreducibleTokens(messages, this.#counter),
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
    if (usage.promptTokens < this.#threshold) this.#overAfterCompaction = 0;
    else if (this.#awaitingVerdict) this.#overAfterCompaction++;
    this.#awaitingVerdict = false;
  }

  updateModel(model: ModelInfo): void {
    const reserve = model.maxOutputTokens ?? this.#settings.maxOutputTokens;
    const { maxOutputTokens: _reserve, ...rest } = this.#settings;
    this.#settings = resolveRuleSettings({
      ...rest,
      contextLength: model.contextLength,
      ...(reserve === undefined ? {} : { maxOutputTokens: reserve }),
    });
    this.#threshold = this.#computeThreshold();
    this.#weakPasses = 0;
    this.#overAfterCompaction = 0;
    this.#lastPromptTokens = undefined;
  }

  resetSession(): void {
    this.#recall.clear();
    this.#continuation = undefined;
    this.#compactions = 0;
    this.#lastPromptTokens = undefined;
    this.#weakPasses = 0;
    this.#overAfterCompaction = 0;
    this.#awaitingVerdict = false;
  }

  /** The recall tool: the agent fetches the original of a collapsed element by reference, or searches them. */
  tools(): readonly EngineTool[] {
    return [RECALL_TOOL];
  }

  async handleToolCall(name: string, args: JsonObject): Promise<string> {
    if (name !== RECALL_TOOL_NAME) {
      throw new CondenseError({
        code: 'INVALID_OPTIONS',
        message: `the rules engine has no tool named "${name}"`,
        hint: `its only tool is ${RECALL_TOOL_NAME}`,
      });
    }
    return this.#recall.answer(args);
  }

  status(): EngineStatus {
    const blocked = this.#settings.enabled ? this.#blockedReason() : 'disabled in the configuration';
    return {
      name: this.name,
      thresholdTokens: this.#threshold,
      contextLength: this.#settings.contextLength,
      compactions: this.#compactions,
      ...(this.#lastPromptTokens === undefined ? {} : { lastPromptTokens: this.#lastPromptTokens }),
      ...(blocked === undefined ? {} : { blocked }),
    };
  }

  /** How the transcript continues the engine's last output, if it does (the agent appended to it). */
  #continued(messages: readonly Message[]) {
    const last = this.#continuation;
    if (last === undefined || messages.length < last.output.length) return undefined;
    for (let index = 0; index < last.output.length; index++) {
      if (messages[index] !== last.output[index]) return undefined;
    }
    const outputLength = last.output.length;
    return {
      outputLength,
      originalLength: last.originalLength,
      frozen: this.#settings.cacheFriendly ? last.tailStart : 0,
      originalOf: (index: number): OriginalPosition =>
        last.lineage[index] ?? { index: last.originalLength + index - outputLength },
    };
  }

  #figures(messages: readonly Message[]): TokenFigures {
    const rough = messages.reduce((sum, message) => sum + this.#counter.countMessage(message), 0);
    const exact = this.#exactCounter;
    if (exact === undefined) return { rough };
    return {
      rough,
      exact: messages.reduce((sum, message) => sum + exact.countMessage(message), 0),
      counter: exact.name,
    };
  }

  /**
   * The trigger share of the window exactly as configured: the rules cost no inference, so firing early (the
   * seed asks for 60 %) is cheap, unlike the compressor's raised floors for small windows.
   */
  #computeThreshold(): number {
    const share = this.#settings.triggerThreshold;
    return computeThreshold({
      contextLength: this.#settings.contextLength,
      thresholdPercent: share,
      smallWindowPercent: share,
      minimumTokens: 0,
      ...(this.#settings.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: this.#settings.maxOutputTokens }),
    });
  }

  #blockedReason(): string | undefined {
    if (this.#weakPasses >= BLOCK_AFTER_STRIKES) {
      return `automatic compaction is paused: the last ${this.#weakPasses} passes saved under ${INEFFECTIVE_SAVINGS_PERCENT} %; compact manually (force) to retry`;
    }
    if (this.#overAfterCompaction >= BLOCK_AFTER_STRIKES) {
      return `automatic compaction is paused: after the last ${this.#overAfterCompaction} compactions the real prompt was still over the threshold; compact manually (force) to retry`;
    }
    return undefined;
  }

  #record(report: CompactionReport): void {
    if (report.madeProgress) {
      this.#compactions++;
      this.#awaitingVerdict = true;
      this.#lastPromptTokens = undefined;
    }
    const weak = !report.madeProgress || report.savings.percent < INEFFECTIVE_SAVINGS_PERCENT;
    this.#weakPasses = weak ? this.#weakPasses + 1 : 0;
  }

  #noop(transcript: Transcript, tokens: number, reason: string): CompactionResult {
    const rough = this.#counter.countTranscript(transcript);
    const report: CompactionReport = {
      ...rulesReport({
        input: transcript.messages,
        output: transcript.messages,
        before: { rough },
        after: { rough },
        counts: NO_RULE_COUNTS,
        thresholdTokens: Number.POSITIVE_INFINITY,
        preset: this.#settings.preset,
        reason,
      }),
      notes: tokens === rough ? [] : [`measured prompt: ${tokens} tokens`],
    };
    return { transcript, report };
  }
}

/**
 * Settings to try, in order, when the configured rules leave the prompt past the window: the strict preset's
 * limits, then only the last step protected. Rules never touch user messages, so these may still not fit.
 */
function squeezedSettings(settings: ResolvedRuleSettings): ResolvedRuleSettings[] {
  const strict = {
    ...settings,
    protectLastNTurns: Math.min(settings.protectLastNTurns, 2),
    maxToolOutputChars: Math.min(settings.maxToolOutputChars, 200),
    truncateHeadLines: Math.min(settings.truncateHeadLines, 5),
    truncateTailLines: Math.min(settings.truncateTailLines, 3),
    keepToolSummary: true,
    cacheFriendly: false,
  };
  return [
    strict,
    { ...strict, protectLastNTurns: 0, truncateHeadLines: 2, truncateTailLines: 1, maxToolOutputChars: 80 },
  ];
}
