import { type Command, Option } from 'commander';
import { BUILTIN_ENGINE_NAMES } from '../engines/engine-names.js';
import type { BuiltinEngineName } from '../engines/registry.js';
import type { FormatName } from '../model/format.js';
import { formatOption, parsePositiveInteger, parseRatio } from './options.js';

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

/**
 * A command that compacts one transcript file (`compact`, `report`): its `<file>` argument and the engine flags,
 * ready for the command's own options.
 */
export function transcriptEngineCommand(program: Command, name: string, description: string): Command {
  const command = program
    .command(name)
    .description(description)
    .argument('<file>', 'transcript file (any supported format; - for standard input)');
  return addEngineOptions(command);
}
