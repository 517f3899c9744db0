import { convertDocument, holdsOneTranscript } from '../../codecs/convert/convert-document.js';
import { describeLosses, lossTotals } from '../../codecs/convert/losses.js';
import { CondenseError } from '../../errors/condense-error.js';
import type { FormatName } from '../../model/format.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { loadInput } from '../input.js';
import { writeOutput } from '../output.js';
import { describeProblems } from '../render/wire-problems.js';

/** The flags of the command. */
export interface ConvertFlags {
  readonly format?: FormatName;
  readonly to: FormatName;
  readonly out?: string;
  readonly keepDialect?: boolean;
  readonly strict?: boolean;
  readonly json?: boolean;
}

/** What `condense convert` does once its arguments are parsed (loaded only when the command runs). */
export async function runConvert(
  context: CliContext,
  state: CommandState,
  file: string,
  flags: ConvertFlags,
): Promise<void> {
  const { document } = await loadInput(context, file, flags.format);
  if (flags.keepDialect === true && document.format !== flags.to) {
    throw new CondenseError({
      code: 'USAGE',
      message: `--keep-dialect keeps the input's own format, but ${file} is ${document.format}, not ${flags.to}`,
      hint: `drop --keep-dialect to convert to ${flags.to}'s canonical shape`,
    });
  }
  const count = document.entries.filter((entry) => entry.kind === 'transcript').length;
  if (holdsOneTranscript(flags.to) && count > 1) {
    throw new CondenseError({
      code: 'USAGE',
      message: `${file} holds ${count} transcripts, but a ${flags.to} file holds exactly one session`,
      hint: 'convert to a format that holds many transcripts per file (openai, anthropic, sharegpt, ai-sdk)',
    });
  }
  const result = convertDocument(document, flags.to, { keepDialect: flags.keepDialect === true });
  if (result.converted === 0) {
    throw new CondenseError({
      code: 'INVALID_INPUT',
      message: `${file} holds no transcript with messages, so there is nothing to convert`,
      hint: 'check that this is the file you meant (condense inspect shows what it holds)',
    });
  }
  if (flags.json === true) {
    if (flags.out !== undefined) await writeOutput(context, result.text, { out: flags.out, inputs: [file] });
    const report = {
      from: document.format,
      to: flags.to,
      converted: result.converted,
      skipped: { empty: result.empty, unreadable: result.unreadable },
      losses: result.losses,
      problems: result.problems,
      ...(flags.out === undefined ? { output: result.wires } : {}),
    };
    context.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else await writeOutput(context, result.text, { out: flags.out, inputs: [file] });
  const notes: string[] = [];
  if (result.empty > 0) notes.push(`left out ${result.empty} transcript(s) with no messages`);
  if (result.unreadable > 0) notes.push(`left out ${result.unreadable} unreadable line(s) of ${file}`);
  notes.push(...describeLosses(result.losses, flags.to));
  const broken = describeProblems(result.problems, flags.to, result.converted);
  notes.push(...broken);
  if (notes.length > 0) context.stderr(notes.map((note) => `condense: ${note}\n`).join(''));
  const lossy = lossTotals(result.losses).dropped > 0;
  state.exitCode = broken.length > 0 || (flags.strict === true && lossy) ? EXIT.failure : EXIT.ok;
}
