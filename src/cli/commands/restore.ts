import type { RestoreFlags } from '../actions/restore.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { formatOption, outOption } from '../options.js';

/**
 * `condense restore <compacted> --from <original>`: puts elements collapsed by the rules engine back from the
 * original transcript (the session log), all of them or those named with `--ref`.
 */
export const registerRestore: CommandRegistrar = (program, context, state) => {
  program
    .command('restore')
    .description('put back what the rules engine collapsed, from the original transcript (session log)')
    .argument('<compacted>', 'transcript compacted with --engine rules (- for standard input)')
    .requiredOption('--from <original>', 'the original transcript the references point into')
    .option('--ref <id...>', 'references to restore (m12#a1b2c3d4, or a bare label); default: all')
    .option('--all', 'restore every collapsed element (the default)')
    .option(
      '--allow-unresolved',
      'write the output even when some references are not in the original (they stay collapsed)',
    )
    .addOption(formatOption())
    .addOption(outOption())
    .action(async (compactedFile: string, flags: RestoreFlags) =>
      (await import('../actions/restore.js')).runRestore(context, state, compactedFile, flags),
    );
};
