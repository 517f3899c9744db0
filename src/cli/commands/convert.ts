import { Option } from 'commander';
import type { DocumentEntry } from '../../codecs/document.js';
import { encodeDocument, getCodec, layoutFor } from '../../codecs/registry.js';
import { CondenseError } from '../../errors/condense-error.js';
import { FORMAT_NAMES, type FormatName } from '../../model/format.js';
import { verifyTranscript } from '../../model/verify.js';
import { EXIT } from '../context.js';
import { loadInput } from '../input.js';
import { formatOption, outOption } from '../options.js';
import { writeOutput } from '../output.js';
import type { CommandRegistrar } from '../program.js';

interface ConvertFlags {
  readonly format?: FormatName;
  readonly to: FormatName;
  readonly out?: string;
}

/** `condense convert <file> --to <format>`: the same transcripts in another wire format. */
export const registerConvert: CommandRegistrar = (program, context, state) => {
  program
    .command('convert')
    .description('convert a transcript file to another format (tool calls stay paired with their results)')
    .argument('<file>', 'transcript file (JSON or JSONL, any supported format; - for standard input)')
    .addOption(new Option('-t, --to <format>', 'target format').choices(FORMAT_NAMES).makeOptionMandatory())
    .addOption(formatOption())
    .addOption(outOption())
    .action(async (file: string, flags: ConvertFlags) => {
      const { document } = await loadInput(context, file, flags.format);
      const entries = document.entries.filter(
        (entry): entry is Extract<DocumentEntry, { kind: 'transcript' }> => entry.kind === 'transcript',
      );
      const skipped = document.entries.length - entries.length;
      if (skipped > 0) context.stderr(`condense: skipped ${skipped} unreadable line(s) of ${file}\n`);
      if (getCodec(flags.to).fileLayout === 'records' && entries.length > 1) {
        throw new CondenseError({
          code: 'USAGE',
          message: `${file} holds ${entries.length} transcripts, but a ${flags.to} file holds exactly one session`,
          hint: 'convert to a format that holds many transcripts per file (openai, anthropic, sharegpt, ai-sdk)',
        });
      }
      const sameFormat = flags.to === document.format;
      const text = encodeDocument(
        sameFormat ? document : { format: flags.to, layout: layoutFor(flags.to, entries.length), entries },
      );
      await writeOutput(context, text, { out: flags.out, inputs: [file] });
      const invalid = entries.filter((entry) => verifyTranscript(entry.transcript).length > 0).length;
      if (invalid > 0)
        context.stderr(
          `condense: ${invalid} transcript(s) had tool-pairing problems in the input (see condense inspect)\n`,
        );
      state.exitCode = EXIT.ok;
    });
};
