import type { ReplayFlags } from '../actions/replay.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { jsonOption, outOption } from '../options.js';

/** `condense replay <session.jsonl>`: the active conversation of a session log, readable or as JSON. */
export const registerReplay: CommandRegistrar = (program, context, state) => {
  program
    .command('replay')
    .description(
      'show the active conversation of a session log (Claude Code, Codex CLI rollout or condense): roles, tool calls and results, compaction boundaries, dead branches',
    )
    .argument('<session>', 'session file (.jsonl)')
    .option(
      '--leaf <uuid>',
      'follow the branch ending at this record (uuid or unique prefix) instead of the active one',
    )
    .option('--context', 'show what the model sees after the last compaction instead of the whole history')
    .option('--full', 'do not shorten tool results and long texts')
    .option(
      '--no-prefilter',
      'parse every line instead of reading links from bytes first (same result, slower)',
    )
    .addOption(outOption())
    .addOption(
      jsonOption(
        'print the session as JSON: messages, boundaries, queued prompts, dead branches, subagents, issues',
      ),
    )
    .action(async (file: string, flags: ReplayFlags) =>
      (await import('../actions/replay.js')).runReplay(context, state, file, flags),
    );
};
