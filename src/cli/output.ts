import { resolve } from 'node:path';
import { CondenseError } from '../errors/condense-error.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import type { CliContext } from './context.js';

/**
 * Writes a command's main output to `-o` (atomically) or to standard output. Refuses to overwrite any of the
 * command's input files: condense never destroys what it was given.
 */
export async function writeOutput(
  context: CliContext,
  text: string,
  options: { readonly out?: string | undefined; readonly inputs: readonly string[] },
): Promise<void> {
  if (options.out === undefined || options.out === '-') {
    context.stdout(text);
    return;
  }
  const target = resolve(context.cwd, options.out);
  if (options.inputs.some((input) => resolve(context.cwd, input) === target)) {
    throw new CondenseError({
      code: 'USAGE',
      message: `refusing to overwrite the input file ${options.out}`,
      hint: 'choose another -o path',
    });
  }
  await writeFileAtomic(target, text);
}
