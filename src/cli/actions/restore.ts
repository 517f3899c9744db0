import type { DocumentEntry, TranscriptDocument } from '../../codecs/document.js';
import { encodeDocument } from '../../codecs/registry.js';
import { type RestoreResult, restoreTranscript } from '../../engines/rules/restore-transcript.js';
import { CondenseError } from '../../errors/condense-error.js';
import type { FormatName } from '../../model/format.js';
import type { Transcript } from '../../model/transcript.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { loadInput } from '../input.js';
import { writeOutput } from '../output.js';

/** The flags of the command. */
export interface RestoreFlags {
  readonly from: string;
  readonly ref?: readonly string[];
  readonly all?: boolean;
  readonly format?: FormatName;
  readonly out?: string;
  readonly allowUnresolved?: boolean;
}

/** What `condense restore` does once its arguments are parsed (loaded only when the command runs). */
export async function runRestore(
  context: CliContext,
  state: CommandState,
  compactedFile: string,
  flags: RestoreFlags,
): Promise<void> {
  if (flags.all === true && flags.ref !== undefined) {
    throw new CondenseError({ code: 'USAGE', message: '--all and --ref exclude each other' });
  }
  const compacted = (await loadInput(context, compactedFile, flags.format)).document;
  const original = (await loadInput(context, flags.from, flags.format)).document;
  const pairs = transcriptsOf(compacted);
  const originals = transcriptsOf(original);
  if (pairs.length !== originals.length) {
    throw new CondenseError({
      code: 'INVALID_INPUT',
      message: `${compactedFile} holds ${pairs.length} transcript(s) but ${flags.from} holds ${originals.length}`,
      hint: 'pass the original file the compacted one was made from',
    });
  }
  const results: RestoreResult[] = [];
  const entries: DocumentEntry[] = [];
  let at = 0;
  // The original file is the frame: restored messages keep their exact records, rewritten ones are new.
  const frame = compacted.format === original.format ? original : compacted;
  for (const entry of frame.entries) {
    if (entry.kind !== 'transcript') {
      entries.push(entry);
      continue;
    }
    const result = restoreTranscript(pairs[at] as Transcript, originals[at] as Transcript, {
      ...(flags.ref === undefined ? {} : { refs: flags.ref }),
      stripCompactedMeta: true,
    });
    at++;
    results.push(result);
    entries.push({ ...entry, transcript: result.transcript });
  }
  const restored = results.reduce((sum, result) => sum + result.restored.length, 0);
  const spans = results.reduce((sum, result) => sum + result.spans, 0);
  const unresolved = [...new Set(results.flatMap((result) => result.unresolved))];
  const listed = `unresolved: ${unresolved.slice(0, 10).join(', ')}${unresolved.length > 10 ? ', …' : ''}`;
  if (unresolved.length > 0 && flags.allowUnresolved !== true) {
    throw new CondenseError({
      code: 'UNRESOLVED_REFERENCE',
      message: `${unresolved.length} reference(s) are not in this original (${listed}); nothing was written`,
      hint: 'restore from the very file the compacted one was made from, since an edited original loses references; or pass --allow-unresolved to write what can be restored',
      location: { file: flags.from },
    });
  }
  await writeOutput(context, encodeDocument({ ...frame, entries }), {
    out: flags.out,
    inputs: [compactedFile, flags.from],
  });
  context.stderr(
    `condense: restored ${restored} element(s) in ${spans} span(s)${unresolved.length === 0 ? '' : `; warning: ${listed} (left collapsed, --allow-unresolved)`}\n`,
  );
  state.exitCode = EXIT.ok;
}

function transcriptsOf(document: TranscriptDocument): Transcript[] {
  return document.entries.flatMap((entry) => (entry.kind === 'transcript' ? [entry.transcript] : []));
}
