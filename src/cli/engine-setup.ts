import { resolve } from 'node:path';
import type { ContextEngine } from '../engines/context-engine.js';
import { createEngine } from '../engines/registry.js';
import type { RuleEngineOptions } from '../engines/rules/options.js';
import { CondenseError } from '../errors/condense-error.js';
import type { Summarizer } from '../summarizer/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { formatNumber } from '../transforms/text-facts.js';
import type { CliContext } from './context.js';
import type { EngineFlags } from './engine-flags.js';
import { tokenCounterFromFlag } from './tokenizer.js';

/**
 * What the engine flags load: the rules configuration and the exact token counter from disk, and the model code
 * when `--model` or `--summary-model` asks for a model (only then: the AI SDK and its providers are heavy).
 */
export interface EngineSetup {
  readonly ruleOptions: RuleEngineOptions;
  readonly exactCounter: TokenCounter | undefined;
  readonly models?: ModelFactory | undefined;
}

/** Makes the summarizer of a `--model` spec (see `models.ts`). */
export type ModelFactory = (context: CliContext, spec: string, baseUrl: string | undefined) => Summarizer;

/** The model code, loaded when the flags name a model, else `undefined`. */
async function loadModels(flags: EngineFlags): Promise<ModelFactory | undefined> {
  if (flags.model === undefined && flags.summaryModel === undefined) return undefined;
  return (await import('./models.js')).modelSummarizerFromFlag;
}

/** Checks the flags against the engine, then reads the rules configuration they name (if any). */
export async function loadRuleOptions(context: CliContext, flags: EngineFlags): Promise<RuleEngineOptions> {
  checkEngineFlags(flags);
  if (flags.engine !== 'rules' || flags.config === undefined) return {};
  // The YAML parser loads only for a run that has a file to parse.
  const { readRuleConfigFile } = await import('../io/read-rule-config.js');
  return readRuleConfigFile(resolve(context.cwd, flags.config));
}

/**
 * The rest of what the engine flags load, once {@link loadRuleOptions} has checked them: the exact counter
 * `--tokenizer` names and the model code. A command that reads no files has no `--tokenizer` and gets none.
 */
export async function loadEngineSetup(
  context: CliContext,
  flags: EngineFlags,
  ruleOptions: RuleEngineOptions,
): Promise<EngineSetup> {
  const exactCounter =
    flags.tokenizer === undefined ? undefined : await tokenCounterFromFlag(context, flags.tokenizer);
  return { ruleOptions, exactCounter, models: await loadModels(flags) };
}

/** The engine the flags ask for: the rules engine with its configuration, or the compressor with its models. */
export function engineFor(context: CliContext, flags: EngineFlags, setup: EngineSetup): ContextEngine {
  const model = (spec: string): Summarizer => {
    if (setup.models === undefined) throw new Error('engineFor: a model flag without loadModels');
    return setup.models(context, spec, flags.baseUrl);
  };
  const counter = setup.exactCounter === undefined ? {} : { exactCounter: setup.exactCounter };
  if (flags.engine === 'rules') {
    return createEngine('rules', {
      ...setup.ruleOptions,
      ...(flags.contextLength === undefined ? {} : { contextLength: flags.contextLength }),
      ...(flags.threshold === undefined ? {} : { triggerThreshold: flags.threshold }),
      ...counter,
    });
  }
  return createEngine('compressor', {
    ...(flags.contextLength === undefined ? {} : { contextLength: flags.contextLength }),
    ...(flags.threshold === undefined ? {} : { thresholdPercent: flags.threshold }),
    ...(flags.model === undefined ? {} : { model: model(flags.model) }),
    ...(flags.summaryModel === undefined ? {} : { summaryModel: model(flags.summaryModel) }),
    ...counter,
  });
}

/** Refuses flags that do not apply to the chosen engine, instead of ignoring them. */
export function checkEngineFlags(flags: EngineFlags): void {
  const misplaced =
    flags.engine === 'rules'
      ? (
          [
            ['--model', flags.model],
            ['--summary-model', flags.summaryModel],
            ['--base-url', flags.baseUrl],
            ['--focus', flags.focus],
          ] as const
        ).find(([, value]) => value !== undefined)?.[0]
      : flags.config === undefined
        ? undefined
        : '--config';
  if (misplaced === undefined) return;
  throw new CondenseError({
    code: 'USAGE',
    message: `${misplaced} does not apply to the ${flags.engine} engine`,
    hint:
      misplaced === '--config'
        ? 'add --engine rules to compact with the rules configuration'
        : 'model flags belong to --engine compressor; the rules engine uses no model',
  });
}

/**
 * A note when the engine triggers later than `--threshold` asked (Hermes' floors: 75 % of windows under 512K,
 * at least 64K tokens, 85 % of a window smaller than that), else `undefined`. Shown on standard error and in
 * `--json`, so a raised threshold is never silent.
 */
export function thresholdNote(flags: EngineFlags, engine: ContextEngine): string | undefined {
  if (flags.threshold === undefined) return undefined;
  const { contextLength, thresholdTokens } = engine.status();
  const requested = Math.floor(contextLength * flags.threshold);
  if (thresholdTokens <= requested) return undefined;
  const share = thresholdTokens / contextLength;
  return `--threshold ${flags.threshold} was raised to ${share.toFixed(2)} (${formatNumber(thresholdTokens)} of ${formatNumber(contextLength)} tokens, not ${formatNumber(requested)}): compaction never triggers below 75 % of a window under 512K tokens, nor below 64K tokens (85 % of a smaller window)`;
}
