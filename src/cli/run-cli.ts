import { CommanderError } from 'commander';
import { isCondenseError } from '../errors/condense-error.js';
import { type CliContext, EXIT, type ExitCode } from './context.js';
import { createProgram } from './program.js';

/**
 * Runs the command line `argv` (without the node and script names) against `context` and returns the exit
 * code: 0 done, 1 bad input or failed work, 2 wrong usage. Never throws.
 */
export async function runCli(argv: readonly string[], context: CliContext): Promise<ExitCode> {
  const state: { exitCode: ExitCode } = { exitCode: EXIT.ok };
  const program = createProgram(context, state);
  try {
    if (argv.length === 0) {
      context.stderr(program.helpInformation());
      return EXIT.usage;
    }
    await program.parseAsync([...argv], { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (isCondenseError(error)) {
      context.stderr(`condense: ${error.describe()}\n`);
      return error.code === 'USAGE' || error.code === 'INVALID_OPTIONS' ? EXIT.usage : EXIT.failure;
    }
    context.stderr(`condense: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.failure;
  }
}
