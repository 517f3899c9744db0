import { resolve } from 'node:path';
import { replayChunks } from '../../session/render-replay.js';
import { replayJsonChunks } from '../../session/replay-json.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { writeOutputChunks } from '../output.js';
import { loadSessionInput } from '../session-input.js';

/** The flags of the command. */
export interface ReplayFlags {
  readonly leaf?: string;
  readonly json?: boolean;
  readonly context?: boolean;
  readonly full?: boolean;
  readonly prefilter: boolean;
  readonly out?: string;
}

/** What `condense replay` does once its arguments are parsed (loaded only when the command runs). */
export async function runReplay(
  context: CliContext,
  state: CommandState,
  file: string,
  flags: ReplayFlags,
): Promise<void> {
  const session = await loadSessionInput(resolve(context.cwd, file), {
    ...(flags.leaf === undefined ? {} : { leaf: flags.leaf }),
    view: flags.context === true ? 'context' : 'full',
    prefilter: flags.prefilter,
  });
  const output = { out: flags.out, inputs: [file] };
  const chunks =
    flags.json === true ? replayJsonChunks(session) : replayChunks(session, { full: flags.full === true });
  await writeOutputChunks(context, chunks, output);
  state.exitCode = EXIT.ok;
}
