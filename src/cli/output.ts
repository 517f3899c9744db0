import { resolve } from 'node:path';
import { writeChunksToTarget, writeToTarget } from '../io/atomic-write.js';
import { assertNotAnInput, type OutputTarget, resolveOutputTarget } from '../io/output-target.js';
import type { CliContext } from './context.js';

/** Where `-o` leads, checked against the command's inputs (`OUTPUT_REFUSED` when it is one of them). */
export async function checkedOutput(
  context: CliContext,
  out: string,
  inputs: readonly string[],
): Promise<OutputTarget> {
  const target = await resolveOutputTarget(resolve(context.cwd, out));
  await assertNotAnInput(
    target,
    inputs.filter((input) => input !== '-').map((input) => resolve(context.cwd, input)),
  );
  return target;
}

/**
 * Writes a command's main output to `-o` or to standard output. Refuses to overwrite any of the command's input
 * files, however the path reaches them (links, `dir/../`, a link to the input's directory): condense never
 * destroys what it was given. A regular file is replaced atomically and keeps its permissions; a FIFO or
 * `/dev/null` is written through.
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
  await writeToTarget(await checkedOutput(context, options.out, options.inputs), text);
}

/**
 * {@link writeOutput} for an output made in chunks as they are asked for: each chunk is written once the one
 * before is taken (standard output's reader, or the disk), so a long output never sits whole in memory.
 */
export async function writeOutputChunks(
  context: CliContext,
  chunks: Iterable<string>,
  options: { readonly out?: string | undefined; readonly inputs: readonly string[] },
): Promise<void> {
  if (options.out === undefined || options.out === '-') {
    const paced = context.stdoutPaced;
    for (const chunk of chunks) {
      if (paced === undefined) context.stdout(chunk);
      else await paced(chunk);
    }
    return;
  }
  await writeChunksToTarget(await checkedOutput(context, options.out, options.inputs), chunks);
}
