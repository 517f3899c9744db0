import { resolve } from 'node:path';
import { Option } from 'commander';
import type { DocumentEntry } from '../../codecs/document.js';
import { encodeDocument } from '../../codecs/registry.js';
import type { CompactionReport } from '../../engines/compaction-report.js';
import type { ContextEngine } from '../../engines/context-engine.js';
import { describeCompaction } from '../../engines/feedback.js';
import { BUILTIN_ENGINE_NAMES, type BuiltinEngineName, createEngine } from '../../engines/registry.js';
import type { RuleEngineOptions } from '../../engines/rules/options.js';
import { CondenseError } from '../../errors/condense-error.js';
import { readRuleConfigFile } from '../../io/read-rule-config.js';
import type { FormatName } from '../../model/format.js';
import { stripOrigins } from '../../model/origins.js';
import type { Transcript } from '../../model/transcript.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { type CliContext, EXIT } from '../context.js';
import { loadInput } from '../input.js';
import { modelSummarizerFromFlag } from '../models.js';
import { formatOption, jsonOption, outOption, parsePositiveInteger, parseRatio } from '../options.js';
import { writeOutput } from '../output.js';
import type { CommandRegistrar } from '../program.js';
import { tokenCounterFromFlag } from '../tokenizer.js';

interface CompactFlags {
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
  readonly force?: boolean;
  readonly out?: string;
  readonly json?: boolean;
}

/** `condense compact <file>`: a smaller, provider-valid transcript in the same format, and what was done. */
export const registerCompact: CommandRegistrar = (program, context, state) => {
  program
    .command('compact')
    .description(
      'compact a transcript: prune old tool output, fold the middle into a checkpoint, keep the latest request',
    )
    .argument('<file>', 'transcript file (any supported format; - for standard input)')
    .addOption(
      new Option(
        '-e, --engine <name>',
        'compaction engine: compressor (checkpoint) or rules (zero inference)',
      )
        .choices(BUILTIN_ENGINE_NAMES)
        .default('compressor'),
    )
    .option('--config <file>', 'rules engine settings (compaction.yaml); needs --engine rules')
    .addOption(formatOption())
    .option(
      '-c, --context-length <tokens>',
      'context window of the agent model',
      parsePositiveInteger('--context-length'),
    )
    .option(
      '--threshold <ratio>',
      'share of the window at which compaction triggers (compressor: default 0.5, at least 0.75 below 512K; rules: default 0.6)',
      parseRatio('--threshold'),
    )
    .option('--focus <text>', 'topic that gets most of the checkpoint')
    .option('--model <spec>', 'summarize with a model: openai:<id>, anthropic:<id>, openai-compatible:<id>')
    .option('--summary-model <spec>', 'a cheaper model for checkpoints, falling back to --model')
    .option(
      '--base-url <url>',
      'API base URL for openai-compatible models (OpenRouter, vLLM, llama.cpp, Ollama)',
    )
    .option(
      '--tokenizer <name>',
      'also report exact token counts: o200k_base, cl100k_base, a model name or a tokenizer.json path',
    )
    .option('--force', 'compact now even below the threshold')
    .addOption(outOption())
    .addOption(jsonOption('print { report, transcript } as JSON instead of the compacted file'))
    .action(async (file: string, flags: CompactFlags) => {
      checkEngineFlags(flags);
      const ruleOptions =
        flags.engine === 'rules' && flags.config !== undefined
          ? await readRuleConfigFile(resolve(context.cwd, flags.config))
          : {};
      const { document } = await loadInput(context, file, flags.format);
      const exactCounter =
        flags.tokenizer === undefined ? undefined : await tokenCounterFromFlag(context, flags.tokenizer);
      const results: { transcript: Transcript; report: CompactionReport }[] = [];
      const entries: DocumentEntry[] = [];
      for (const entry of document.entries) {
        if (entry.kind !== 'transcript') {
          entries.push(entry);
          continue;
        }
        const result = await engineFor(context, flags, exactCounter, ruleOptions).compress(entry.transcript, {
          force: flags.force === true,
          ...(flags.focus === undefined ? {} : { focusTopic: flags.focus }),
        });
        results.push(result);
        entries.push({ ...entry, transcript: result.transcript });
      }
      if (flags.json === true) {
        const payload = results.map((result) => ({
          report: result.report,
          transcript: stripOrigins(result.transcript),
        }));
        const body = payload.length === 1 ? payload[0] : { format: document.format, results: payload };
        await writeOutput(context, `${JSON.stringify(body, null, 2)}\n`, { out: flags.out, inputs: [file] });
      } else {
        await writeOutput(context, encodeDocument({ ...document, entries }), {
          out: flags.out,
          inputs: [file],
        });
      }
      context.stderr(feedback(results.map((result) => result.report)));
      state.exitCode = results.some((result) => result.report.aborted) ? EXIT.failure : EXIT.ok;
    });
};

/** The engine the flags ask for: the rules engine with its configuration, or the compressor with its models. */
function engineFor(
  context: CliContext,
  flags: CompactFlags,
  exactCounter: TokenCounter | undefined,
  ruleOptions: RuleEngineOptions,
): ContextEngine {
  const counter = exactCounter === undefined ? {} : { exactCounter };
  if (flags.engine === 'rules') {
    return createEngine('rules', {
      ...ruleOptions,
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
function checkEngineFlags(flags: CompactFlags): void {
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

/** The lines printed to standard error after compaction (one block per transcript, at most ten). */
function feedback(reports: readonly CompactionReport[]): string {
  const lines: string[] = [];
  for (const [index, report] of reports.slice(0, 10).entries()) {
    const described = describeCompaction(report);
    const prefix = reports.length > 1 ? `#${index} ` : '';
    lines.push(`${prefix}${described.headline}`, `${prefix}${described.tokenLine}`);
    if (report.reason !== undefined && (described.noop || report.aborted))
      lines.push(`${prefix}${report.reason}`);
    if (!described.noop && !report.aborted) lines.push(`${prefix}${detailLine(report)}`);
    if (described.note !== undefined) lines.push(`${prefix}${described.note}`);
  }
  if (reports.length > 10) lines.push(`… and ${reports.length - 10} more transcripts`);
  return `${lines.map((line) => `condense: ${line}`).join('\n')}\n`;
}

/** What the engine did, in one line: the checkpoint and pruning, or what each rule did. */
function detailLine(report: CompactionReport): string {
  const rules = report.rules;
  if (rules !== undefined) {
    return `rules: ${rules.collapsedPairs} tool pair(s) collapsed, ${rules.truncatedOutputs} output(s) truncated, ${rules.droppedSystem} system message(s) dropped, ${rules.mergedAssistant} assistant message(s) folded; ${rules.references} reference(s) to restore from (condense restore)`;
  }
  return `checkpoint: ${report.summary.source}, ${report.dropped} message(s) folded; pruned: ${report.pruning.digested} digested, ${report.pruning.deduplicated} deduplicated, ${report.pruning.argumentsShrunk} arguments shrunk, ${report.pruning.imagesStripped} images stripped`;
}
