import { CondenseError } from '../../errors/condense-error.js';
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import { createRoughCounter } from '../../tokens/rough-counter.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { countOf } from '../../transforms/text-facts.js';
import type { CompactionReport, TokenFigures } from '../compaction-report.js';
import type { Compactor, CompactorDisabled, CompactorPass, CompactorWindow } from '../compactor.js';
import type { CompactionResult, EngineTool, ModelInfo } from '../context-engine.js';
import { GovernedEngineWithTools } from '../governor.js';
import { computeThreshold } from '../threshold.js';
import { applyRules, type OriginalPosition } from './apply-rules.js';
import { type ResolvedRuleSettings, type RuleEngineOptions, resolveRuleSettings } from './options.js';
import { protectedTailStart } from './protected-tail.js';
import { createRecallStore, RECALL_TOOL, RECALL_TOOL_NAME } from './recall.js';
import { NO_RULE_COUNTS, rulesReport } from './rules-report.js';

/** What the engine remembers of its last pass, to continue the same conversation. */
interface Continuation {
  readonly output: readonly Message[];
  readonly lineage: readonly OriginalPosition[];
  /** Messages of the uncompacted conversation the output stands for. */
  readonly originalLength: number;
  /** Output index where the last pass's protected tail started (final prefix in cache-friendly mode). */
  readonly tailStart: number;
}

const DISABLED: CompactorDisabled = {
  status: 'disabled in the configuration',
  reason:
    'automatic compaction is disabled in the configuration (enabled: false); compact manually (force) to run the rules',
};

/**
 * The rules engine's passes: deterministic rules outside a protected tail, squeezed harder only when the
 * configured ones would leave the prompt past the window. It remembers what it collapsed (for recall) and where
 * its last pass ended (to continue the same conversation); when to run is the governor's.
 */
class RulesCompactor implements Compactor {
  readonly name = 'rules';
  readonly counter: TokenCounter;
  #settings: ResolvedRuleSettings;
  readonly #exactCounter: TokenCounter | undefined;
  readonly #recall = createRecallStore();
  #continuation: Continuation | undefined;

  constructor(options: RuleEngineOptions = {}) {
    this.#settings = resolveRuleSettings(options);
    this.counter = options.counter ?? createRoughCounter();
    this.#exactCounter = options.exactCounter;
  }

  get settings(): ResolvedRuleSettings {
    return this.#settings;
  }

  /**
   * The trigger share of the window exactly as configured: the rules cost no inference, so firing early (the
   * seed asks for 60 %) is cheap, unlike the compressor's raised floors for small windows.
   */
  window(): CompactorWindow {
    const { contextLength, maxOutputTokens, triggerThreshold: share } = this.#settings;
    return {
      contextLength,
      maxOutputTokens,
      thresholdTokens: computeThreshold({
        contextLength,
        thresholdPercent: share,
        smallWindowPercent: share,
        minimumTokens: 0,
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      }),
    };
  }

  updateModel(model: ModelInfo): void {
    const reserve = model.maxOutputTokens ?? this.#settings.maxOutputTokens;
    const { maxOutputTokens: _reserve, ...rest } = this.#settings;
    this.#settings = resolveRuleSettings({
      ...rest,
      contextLength: model.contextLength,
      ...(reserve === undefined ? {} : { maxOutputTokens: reserve }),
    });
  }

  disabled(): CompactorDisabled | undefined {
    return this.#settings.enabled ? undefined : DISABLED;
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

  async compact(transcript: Transcript, budget: CompactorPass): Promise<CompactionResult> {
    budget.signal?.throwIfAborted();
    const limit = budget.limitTokens;
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
        ? [`rules squeezed (${countOf(squeezed, 'step')} stricter) to fit ${countOf(limit, 'token')}`]
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
      tailStart: protectedTailStart(output, this.#settings.protectLastN),
    };
    const report = rulesReport({
      input: messages,
      output,
      before,
      after,
      counts: kept ? pass.counts : NO_RULE_COUNTS,
      thresholdTokens: budget.thresholdTokens,
      preset: this.#settings.preset,
      squeezed: kept && squeezed > 0,
      ...(reason === undefined ? {} : { reason }),
      notes,
      ...(output === messages ? {} : { sources: pass.sources }),
    });
    if (kept) this.#recall.add(pass.elements);
    return { transcript: output === messages ? transcript : { ...transcript, messages: output }, report };
  }

  idleReport(transcript: Transcript, rough: number, reason: string): CompactionReport {
    return rulesReport({
      input: transcript.messages,
      output: transcript.messages,
      before: { rough },
      after: { rough },
      counts: NO_RULE_COUNTS,
      thresholdTokens: Number.POSITIVE_INFINITY,
      preset: this.#settings.preset,
      reason,
    });
  }

  resetSession(): void {
    this.#recall.clear();
    this.#continuation = undefined;
  }

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
    const rough = messages.reduce((sum, message) => sum + this.counter.countMessage(message), 0);
    const exact = this.#exactCounter;
    if (exact === undefined) return { rough };
    return {
      rough,
      exact: messages.reduce((sum, message) => sum + exact.countMessage(message), 0),
      counter: exact.name,
    };
  }
}

/**
 * The zero-inference engine: deterministic rules (collapse succeeded tool pairs, truncate long outputs, drop
 * later system messages, fold assistant runs) outside a protected tail of recent steps, with a reference on
 * everything collapsed so it can be restored or recalled (the `condense_recall` tool). The governor it extends
 * owns triggering, usage learning and the anti-thrash pauses.
 */
export class RuleEngine extends GovernedEngineWithTools {
  declare readonly name: 'rules';
  readonly #rules: RulesCompactor;

  constructor(options: RuleEngineOptions = {}) {
    const rules = new RulesCompactor(options);
    super(rules);
    this.#rules = rules;
  }

  /** The settings in force (preset and options applied). */
  get settings(): ResolvedRuleSettings {
    return this.#rules.settings;
  }
}

/**
 * Settings to try, in order, when the configured rules leave the prompt past the window: the strict preset's
 * limits, then only the last step protected. Rules never touch user messages, so these may still not fit.
 */
function squeezedSettings(settings: ResolvedRuleSettings): ResolvedRuleSettings[] {
  const strict = {
    ...settings,
    protectLastN: Math.min(settings.protectLastN, 2),
    maxToolOutputChars: Math.min(settings.maxToolOutputChars, 200),
    truncateHeadLines: Math.min(settings.truncateHeadLines, 5),
    truncateTailLines: Math.min(settings.truncateTailLines, 3),
    keepToolSummary: true,
    cacheFriendly: false,
  };
  return [
    strict,
    { ...strict, protectLastN: 0, truncateHeadLines: 2, truncateTailLines: 1, maxToolOutputChars: 80 },
  ];
}
