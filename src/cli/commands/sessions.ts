import type { SessionsFlags } from '../actions/sessions.js';
import type { CommandRegistrar } from '../command-registrar.js';
import { jsonOption } from '../options.js';

/** `condense sessions <dir>`: one line per session of a project directory. */
export const registerSessions: CommandRegistrar = (program, context, state) => {
  program
    .command('sessions')
    .description(
      'list the sessions of a directory (a Claude Code project, ~/.claude/projects, ~/.codex/sessions, or condense logs): id, title, messages, tokens, compactions, dead branches, last activity, agent',
    )
    .argument('<dir>', 'directory of session files')
    .addOption(jsonOption())
    .action(async (dir: string, flags: SessionsFlags) =>
      (await import('../actions/sessions.js')).runSessions(context, state, dir, flags),
    );
};
