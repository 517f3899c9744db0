import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { ContextEngine } from '../engines/context-engine.js';
import { BUILTIN_ENGINE_NAMES, type BuiltinEngineName, createEngine } from '../engines/registry.js';
import type { RuleEngineOptions } from '../engines/rules/options.js';
import { CondenseError } from '../errors/condense-error.js';
import { readRuleConfigFile } from '../io/read-rule-config.js';
import type { FormatName } from '../model/format.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { CliContext } from './context.js';
import { modelSummarizerFromFlag } from './models.js';
import { formatOption, parsePositiveInteger, parseRatio } from './options.js';
import { tokenCounterFromFlag } from './tokenizer.js';

/** The flags that choose and configure a compaction engine (shared by `compact` and `report`). */
export interface EngineFlags {
  readonly engine: BuiltinEngineName;
  readonly config?: string;
  readonly format?: FormatName;
  readonly contextLength?: number;
  readonly threshold?: number;
  readonly focus?: string;
  readonly model?: string;
  readonly summaryModel?: string;
  readonly baseUrl?: string;
  readonly tokenizer?: string;
}

/** What the engine flags load from disk: the rules configuration and the exact token counter. */
export interface EngineSetup {
  readonly ruleOptions: RuleEngineOptions;
  readonly exactCounter: TokenCounter | undefined;
}

/**
 * Adds the engine flags to a command, in the order its help lists them. A command that reads no transcript
 * file (`proxy`) leaves out `--format`, `--focus` and `--tokenizer`, which would mean nothing there.
 */
export function addEngineOptions(
  command: Command,
  scope: { readonly files: boolean } = { files: true },
): Command {
  command
    .addOption(
      new Option(
        '-e, --engine <name>',
        'compaction engine: compressor (checkpoint) or rules (zero inference)',
      )
        .choices(BUILTIN_ENGINE_NAMES)
        .default('compressor'),
    )
    .option('--config <file>', 'rules engine settings (compaction.yaml); needs --engine rules');
  if (scope.files) command.addOption(formatOption());
  command
    .option(
      '-c, --context-length <tokens>',
      'context window of the agent model',
      parsePositiveInteger('--context-length'),
    )
    .option(
      '--threshold <ratio>',
      'share of the window at which compaction triggers (compressor: default 0.5, at least 0.75 below 512K; rules: default 0.6)',
      parseRatio('--threshold'),
    );
  if (scope.files) command.option('--focus <text>', 'topic that gets most of the checkpoint');
  command
    .option('--model <spec>', 'summarize with a model: openai:<id>, anthropic:<id>, openai-compatible:<id>')
    .option('--summary-model <spec>', 'a cheaper model for checkpoints, falling back to --model')
    .option(
      '--base-url <url>',
      'API base URL for openai-compatible models (OpenRouter, vLLM, llama.cpp, Ollama)',
    );
  if (!scope.files) return command;
  return command.option(
    '--tokenizer <name>',
    'also report exact token counts: o200k_base, cl100k_base, a model name or a tokenizer.json path',
  );
}

/** Checks the flags against the engine, then reads the rules configuration they name (if any). */
export async function loadRuleOptions(context: CliContext, flags: EngineFlags): Promise<RuleEngineOptions> {
  checkEngineFlags(flags);
  return flags.engine === 'rules' && flags.config !== undefined
    ? await readRuleConfigFile(resolve(context.cwd, flags.config))
    : {};
}

/** The exact token counter `--tokenizer` names, if any. */
export async function loadExactCounter(
  context: CliContext,
  flags: EngineFlags,
): Promise<TokenCounter | undefined> {
  return flags.tokenizer === undefined ? undefined : await tokenCounterFromFlag(context, flags.tokenizer);
}

/** The engine the flags ask for: the rules engine with its configuration, or the compressor with its models. */
export function engineFor(context: CliContext, flags: EngineFlags, setup: EngineSetup): ContextEngine {
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
    ...(flags.model === undefined
      ? {}
      : { model: modelSummarizerFromFlag(context, flags.model, flags.baseUrl) }),
    ...(flags.summaryModel === undefined
      ? {}
      : { summaryModel: modelSummarizerFromFlag(context, flags.summaryModel, flags.baseUrl) }),
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
  const count = (value: number) => value.toLocaleString('en-US');
  return `--threshold ${flags.threshold} was raised to ${share.toFixed(2)} (${count(thresholdTokens)} of ${count(contextLength)} tokens, not ${count(requested)}): compaction never triggers below 75 % of a window under 512K tokens, nor below 64K tokens (85 % of a smaller window)`;
}
