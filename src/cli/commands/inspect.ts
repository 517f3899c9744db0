import type { Command } from 'commander';
import type { InspectFlags } from '../actions/inspect.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { formatOption, jsonOption, parseNonNegativeInteger } from '../options.js';

/** `condense inspect <file>`: what is inside a transcript file, whatever its format. */
export const registerInspect: CommandRegistrar = (program: Command, context, state) => {
  program
    .command('inspect')
    .description(
      'show what is inside a transcript file: messages, tools, tokens, heaviest messages, problems',
    )
    .argument('<file>', 'transcript file (JSON or JSONL, any supported format; - for standard input)')
    .addOption(formatOption())
    .option(
      '--tokenizer <name>',
      'also count exactly: o200k_base, cl100k_base, a model name, or a tokenizer.json path',
    )
    .option('--top <n>', 'how many heaviest messages to list', parseNonNegativeInteger('--top'), 10)
    .addOption(jsonOption())
    .action(async (file: string, flags: InspectFlags) =>
      (await import('../actions/inspect.js')).runInspect(context, state, file, flags),
    );
};
