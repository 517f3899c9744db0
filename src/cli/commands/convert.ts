import { Option } from 'commander';
import { FORMAT_NAMES } from '../../model/format.js';
import type { ConvertFlags } from '../actions/convert.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { formatOption, jsonOption, outOption } from '../options.js';

/**
 * `condense convert <file> --to <format>`: the same transcripts in another format's canonical wire shape, with
 * everything that could not be carried reported, and the provider's rules checked on the result.
 */
export const registerConvert: CommandRegistrar = (program, context, state) => {
  program
    .command('convert')
    .description(
      "convert transcripts to another format's canonical wire shape (one {messages} per transcript for openai), reporting whatever cannot be carried",
    )
    .argument('<file>', 'transcript file (JSON or JSONL, any supported format; - for standard input)')
    .addOption(new Option('-t, --to <format>', 'target format').choices(FORMAT_NAMES).makeOptionMandatory())
    .addOption(formatOption())
    .option(
      '--keep-dialect',
      "when the input is already in the target format, write it in its own envelope and dialect (SWE-agent .traj, tau-bench, ToolBench…) instead of the API's shape",
    )
    .option('--strict', 'fail (exit 1) when anything could not be carried as it was')
    .addOption(outOption())
    .addOption(
      jsonOption('print { from, to, converted, losses, problems } as JSON (and the output itself unless -o)'),
    )
    .action(async (file: string, flags: ConvertFlags) =>
      (await import('../actions/convert.js')).runConvert(context, state, file, flags),
    );
};
