import { CommanderError } from 'commander';
import type { ErrorCode } from '../errors/codes.js';
import { type CondenseError, isCondenseError } from '../errors/condense-error.js';
import { type CliContext, EXIT, type ExitCode } from './context.js';
import { createProgram } from './program.js';

/** Codes that mean the command line itself is wrong (exit 2); every other error is failed work (exit 1). */
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set(['USAGE', 'INVALID_OPTIONS', 'OUTPUT_REFUSED']);

/** One line per error: `condense: error CODE: where: what (what to do)`, the code being stable for scripts. */
export function renderError(error: CondenseError): string {
  return `condense: error ${error.code}: ${error.describe()}\n`;
}

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
      context.stderr(renderError(error));
      return USAGE_CODES.has(error.code) ? EXIT.usage : EXIT.failure;
    }
    const system = (error as NodeJS.ErrnoException).code;
    if (typeof system === 'string' && /^E[A-Z]+$/.test(system)) {
      // A system call failed somewhere no command expected it: say what the system said, without a stack.
      context.stderr(`condense: error IO_FAILED: ${(error as Error).message}\n`);
      return EXIT.failure;
    }
    context.stderr(`condense: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.failure;
  }
}
