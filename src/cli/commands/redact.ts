import { Option } from 'commander';
import type { RedactFlags } from '../actions/redact.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { formatOption, jsonOption, outOption } from '../options.js';

/**
 * `condense redact <file>`: masks every secret of a transcript file and writes it back in the same format and
 * layout (untouched lines keep their bytes). `--json` prints what was masked, by kind and location, instead of
 * the file (which then goes only to `-o`).
 */
export const registerRedact: CommandRegistrar = (program, context, state) => {
  program
    .command('redact')
    .description(
      'mask secrets (API keys, tokens, passwords, private keys…) in a transcript file, same format out',
    )
    .argument('<file>', 'transcript file (JSON or JSONL, any supported format; - for standard input)')
    .addOption(formatOption())
    .addOption(outOption())
    .addOption(
      jsonOption('print the findings (kind and location, never the secret) as JSON instead of the file'),
    )
    .addOption(
      new Option('--allow <value>', 'never mask this exact value (repeatable)').argParser(
        (value: string, previous: readonly string[] | undefined) => [...(previous ?? []), value],
      ),
    )
    .action(async (file: string, flags: RedactFlags) =>
      (await import('../actions/redact.js')).runRedact(context, state, file, flags),
    );
};
