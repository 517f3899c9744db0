import { documentTranscripts } from '../../codecs/document.js';
import { getCodec } from '../../codecs/registry.js';
import { inspectTranscripts } from '../../inspect/inspect-transcript.js';
import type { FormatName } from '../../model/format.js';
import type { VerifyProvider } from '../../model/verify.js';
import { createRoughCounter } from '../../tokens/index.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { loadInput } from '../input.js';
import { renderInspect } from '../render/inspect-text.js';
import { tokenCounterFromFlag } from '../tokenizer.js';

/** The flags of the command. */
export interface InspectFlags {
  readonly format?: FormatName;
  readonly json?: boolean;
  readonly tokenizer?: string;
  readonly top: number;
}

/** What `condense inspect` does once its arguments are parsed (loaded only when the command runs). */
export async function runInspect(
  context: CliContext,
  state: CommandState,
  file: string,
  flags: InspectFlags,
): Promise<void> {
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
}

/** Providers whose request rules a format's transcripts must satisfy. */
function verifyProviderFor(format: FormatName): VerifyProvider {
  const codec = getCodec(format);
  if (codec.capabilities.strictAlternation) return 'anthropic';
  return format === 'openai' || format === 'openai-responses' || format === 'codex' ? 'openai' : 'generic';
}
