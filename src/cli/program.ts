import { Command } from 'commander';
import type { CommandRegistrar, CommandState } from './command-registrar.js';
import { registerCompact } from './commands/compact.js';
import { registerConvert } from './commands/convert.js';
import { registerExport } from './commands/export.js';
import { registerInspect } from './commands/inspect.js';
import { registerProxy } from './commands/proxy.js';
import { registerRedact } from './commands/redact.js';
import { registerReplay } from './commands/replay.js';
import { registerReport } from './commands/report.js';
import { registerRestore } from './commands/restore.js';
import { registerSessions } from './commands/sessions.js';
import { registerTrajectories } from './commands/trajectories.js';
import { registerWorker } from './commands/worker.js';
import type { CliContext } from './context.js';

const COMMANDS: readonly CommandRegistrar[] = [
  registerInspect,
  registerConvert,
  registerCompact,
  registerRestore,
  registerRedact,
  registerReplay,
  registerSessions,
  registerExport,
  registerTrajectories,
  registerReport,
  registerProxy,
  registerWorker,
];

/** Builds the `condense` command line with every command, writing through `context` and never exiting. */
export function createProgram(context: CliContext, state: CommandState): Command {
  const program = new Command('condense')
    .description(
      'Keep LLM agents inside their context window, and turn their transcripts into compact, replayable records.',
    )
    .version('0.1.0', '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: context.stdout, writeErr: context.stderr })
    .exitOverride();
  for (const register of COMMANDS) register(program, context, state);
  for (const command of program.commands) {
    command.configureOutput({ writeOut: context.stdout, writeErr: context.stderr }).exitOverride();
    command.showHelpAfterError('(run with --help for usage)');
  }
  return program;
}
