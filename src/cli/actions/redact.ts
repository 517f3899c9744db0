import type { JsonLinesReader } from '../../codecs/decode-document.js';
import type { DocumentLayout } from '../../codecs/document.js';
import { encodeDocumentChunks, readJsonLines } from '../../codecs/registry.js';
import { appendAll } from '../../model/arrays.js';
import type { FormatName } from '../../model/format.js';
import { type DocumentFinding, type RedactOptions, redactDocument } from '../../redact/index.js';
import { type RedactLineFailure, redactJsonLines } from '../../redact/redact-json-lines.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { decodeInput, type InputText, loadInputText } from '../input.js';
import { writeOutputChunks } from '../output.js';

/** The flags of the command. */
export interface RedactFlags {
  readonly format?: FormatName;
  readonly out?: string;
  readonly json?: boolean;
  readonly allow?: readonly string[];
}

/** Counts findings per kind, kinds in order of first appearance. */
function countByKind(findings: readonly DocumentFinding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const finding of findings) counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
  return counts;
}

/** A finding with its keys in reading order: where first, then what. */
function location(finding: DocumentFinding): DocumentFinding {
  const { kind, entry, line, message, path, start, end } = finding;
  return {
    entry,
    ...(line === undefined ? {} : { line }),
    ...(message === undefined ? {} : { message }),
    path,
    start,
    end,
    kind,
  };
}

/** One line per kind: `  openai-key  2`. */
function summary(findings: readonly DocumentFinding[]): string {
  const counts = Object.entries(countByKind(findings));
  if (counts.length === 0) return 'condense: no secrets found\n';
  const width = Math.max(...counts.map(([kind]) => kind.length));
  const lines = counts.map(([kind, count]) => `  ${kind.padEnd(width)}  ${count}`);
  return `condense: masked ${findings.length} secret(s)\n${lines.join('\n')}\n`;
}

/** What `condense redact` does once its arguments are parsed (loaded only when the command runs). */
export async function runRedact(
  context: CliContext,
  state: CommandState,
  file: string,
  flags: RedactFlags,
): Promise<void> {
  const input = await loadInputText(context, file);
  const options = { allow: flags.allow ?? [] };
  const findings: DocumentFinding[] = [];
  const failures: RedactLineFailure[] = [];
  const output = redactedOutput(input, flags.format, options, findings, failures);
  if (flags.json === true) {
    if (flags.out !== undefined)
      await writeOutputChunks(context, output.chunks, { out: flags.out, inputs: [file] });
    // Nothing is written, but making the chunks is what redacts the lines and collects their findings.
    else for (const _chunk of output.chunks);
    const payload = {
      file: input.path,
      format: output.format,
      layout: output.layout,
      ...(flags.out === undefined ? {} : { out: flags.out }),
      findings: findings.length,
      byKind: countByKind(findings),
      locations: findings.map(location),
      ...(failures.length === 0 ? {} : { failedLines: failures }),
    };
    context.stdout(`${JSON.stringify(payload, null, 2)}\n`);
  } else {
    await writeOutputChunks(context, output.chunks, { out: flags.out, inputs: [file] });
    context.stderr(summary(findings));
  }
  for (const failure of failures)
    context.stderr(
      `condense: error REDACT_FAILED: ${input.path}:${failure.line}: could not redact this line (${failure.message}); it is left out of the output\n`,
    );
  state.exitCode = failures.length === 0 ? EXIT.ok : EXIT.failure;
}

/**
 * The redacted file, made as it is written, and its findings, pushed into `findings` as they are found (all of
 * them once the chunks are consumed); JSONL lines that could not be redacted go to `failures`, left out. A JSONL
 * file of one transcript per line is redacted a line at a time; any other file is decoded whole, redacted and
 * encoded in chunks. Both write the same bytes.
 */
function redactedOutput(
  input: InputText,
  format: FormatName | undefined,
  options: RedactOptions,
  findings: DocumentFinding[],
  failures: RedactLineFailure[],
): { format: FormatName; layout: DocumentLayout; chunks: Iterable<string> } {
  const reader = jsonLinesOf(input, format);
  if (reader !== undefined)
    return {
      format: reader.format,
      layout: 'jsonl',
      chunks: redactJsonLines(reader, findings, options, failures),
    };
  const { document } = decodeInput(input, format);
  const result = redactDocument(document, options);
  appendAll(findings, result.findings);
  return {
    format: result.document.format,
    layout: result.document.layout,
    chunks: encodeDocumentChunks(result.document),
  };
}

/** The input as JSONL lines to redact one by one, or undefined to decode it whole (which reports any error). */
function jsonLinesOf(input: InputText, format: FormatName | undefined): JsonLinesReader | undefined {
  try {
    return readJsonLines(input.text, { fileName: input.path, ...(format === undefined ? {} : { format }) });
  } catch {
    return undefined;
  }
}
