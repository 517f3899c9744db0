import type { Command } from 'commander';
import { documentTranscripts } from '../../codecs/document.js';
import { getCodec } from '../../codecs/registry.js';
import { inspectTranscripts } from '../../inspect/inspect-transcript.js';
import type { FormatName } from '../../model/format.js';
import type { VerifyProvider } from '../../model/verify.js';
import { createRoughCounter } from '../../tokens/index.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { EXIT } from '../context.js';
import { loadInput } from '../input.js';
import { formatOption, jsonOption, parseNonNegativeInteger } from '../options.js';
import type { CommandRegistrar } from '../program.js';
import { renderInspect } from '../render/inspect-text.js';
import { tokenCounterFromFlag } from '../tokenizer.js';

interface InspectFlags {
  readonly format?: FormatName;
  readonly json?: boolean;
  readonly tokenizer?: string;
  readonly top: number;
}

/** `condense inspect <file>`: what is inside a transcript file, whatever its format. */
export const registerInspect: CommandRegistrar = (program: Command, context, state) => {
  program
    .command('inspect')
    .description(
      'show what is inside a transcript file: messages, tools, tokens, heaviest messages, problems',
    )
    .argument('<file>', 'transcript file (JSON or JSONL, any supported format; - for standard input)')
    .addOption(formatOption())
    .option(
      '--tokenizer <name>',
      'also count exactly: o200k_base, cl100k_base, a model name, or a tokenizer.json path',
    )
    .option('--top <n>', 'how many heaviest messages to list', parseNonNegativeInteger('--top'), 10)
    .addOption(jsonOption())
    .action(async (file: string, flags: InspectFlags) => {
      const loaded = await loadInput(context, file, flags.format);
      const counters: TokenCounter[] = [createRoughCounter()];
      if (flags.tokenizer !== undefined) counters.push(await tokenCounterFromFlag(context, flags.tokenizer));
      const { document } = loaded;
      const report = inspectTranscripts(documentTranscripts(document), {
        counters: counters.length > 1 ? [counters[1] as TokenCounter, counters[0] as TokenCounter] : counters,
        provider: verifyProviderFor(document.format),
        heaviest: flags.top,
      });
      const bytes = Buffer.byteLength(loaded.text);
      if (flags.json === true) {
        const payload = {
          file: loaded.path,
          format: document.format,
          layout: document.layout,
          bytes,
          issues: document.issues,
          ...report,
        };
        context.stdout(`${JSON.stringify(payload, null, 2)}\n`);
      } else {
        context.stdout(
          renderInspect(
            {
              file: loaded.path,
              format: document.format,
              layout: document.layout,
              bytes,
              issues: document.issues,
            },
            report,
          ),
        );
      }
      state.exitCode = EXIT.ok;
    });
};

/** Providers whose request rules a format's transcripts must satisfy. */
function verifyProviderFor(format: FormatName): VerifyProvider {
  const codec = getCodec(format);
  if (codec.capabilities.strictAlternation) return 'anthropic';
  return format === 'openai' || format === 'openai-responses' || format === 'codex' ? 'openai' : 'generic';
}
