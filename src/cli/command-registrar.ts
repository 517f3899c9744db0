import type { Command } from 'commander';
import type { CliContext, ExitCode } from './context.js';

/** Mutable holder through which a command's action reports its exit code. */
export interface CommandState {
  exitCode: ExitCode;
}

/**
 * Adds one command to the program. Every `src/cli/commands/<verb>.ts` exports one of these; the type lives apart
 * from `program.ts`, which imports every command, so no command imports back the module that imports it.
 */
export type CommandRegistrar = (program: Command, context: CliContext, state: CommandState) => void;
