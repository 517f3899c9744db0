import { Option } from 'commander';
import { EXPORT_FORMATS } from '../../session/export-formats.js';
import type { ExportFlags } from '../actions/export.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { outOption } from '../options.js';

/** `condense export <session|dir> --to F`: active conversations as dataset JSONL, one session per line. */
export const registerExport: CommandRegistrar = (program, context, state) => {
  program
    .command('export')
    .description(
      'export the active conversation of a session (or of every session in a directory) as dataset JSONL: ShareGPT (Hermes entries), OpenAI chat or Anthropic messages, one session per line',
    )
    .argument('<session>', 'session file (.jsonl) or directory of sessions')
    .addOption(
      new Option('-t, --to <format>', 'dataset format').choices(EXPORT_FORMATS).makeOptionMandatory(),
    )
    .option('--redact', 'mask secrets (API keys, tokens, passwords…) before writing')
    .option('--context', 'export what the model saw after the last compaction instead of the whole history')
    .addOption(outOption())
    .action(async (input: string, flags: ExportFlags) =>
      (await import('../actions/export.js')).runExport(context, state, input, flags),
    );
};
