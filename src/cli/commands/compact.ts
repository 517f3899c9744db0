import type { CompactFlags } from '../actions/compact.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { transcriptEngineCommand } from '../engine-flags.js';
import { jsonOption, outOption } from '../options.js';

/** `condense compact <file>`: a smaller, provider-valid transcript in the same format, and what was done. */
export const registerCompact: CommandRegistrar = (program, context, state) => {
  transcriptEngineCommand(
    program,
    'compact',
    'compact a transcript: prune old tool output, fold the middle into a checkpoint, keep the latest request',
  )
    .option('--force', 'compact now even below the threshold')
    .option(
      '--full-history',
      "compact a session's whole history; by default a Claude Code session is compacted as the agent has it, from its last compaction on (the records before it stay as they are)",
    )
    .addOption(outOption())
    .addOption(
      jsonOption(
        "print { report, transcript } as JSON instead of the compacted file (transcript in the input's wire format)",
      ),
    )
    .action(async (file: string, flags: CompactFlags) =>
      (await import('../actions/compact.js')).runCompact(context, state, file, flags),
    );
};
