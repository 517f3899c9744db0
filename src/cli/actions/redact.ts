import { encodeDocumentChunks } from '../../codecs/registry.js';
import type { FormatName } from '../../model/format.js';
import { type DocumentFinding, redactDocument } from '../../redact/index.js';
import type { CommandState } from '../command-registrar.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../context.js';
import { loadInput } from '../input.js';
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
  const loaded = await loadInput(context, file, flags.format);
  const { document, findings } = redactDocument(loaded.document, { allow: flags.allow ?? [] });
  // Written as it is encoded: the whole text of a large dataset, and its bytes, cost more than encoding it.
  const text = () => encodeDocumentChunks(document);
  if (flags.json === true) {
    if (flags.out !== undefined) await writeOutputChunks(context, text(), { out: flags.out, inputs: [file] });
    const payload = {
      file: loaded.path,
      format: document.format,
      layout: document.layout,
      ...(flags.out === undefined ? {} : { out: flags.out }),
      findings: findings.length,
      byKind: countByKind(findings),
      locations: findings.map(location),
    };
    context.stdout(`${JSON.stringify(payload, null, 2)}\n`);
  } else {
    await writeOutputChunks(context, text(), { out: flags.out, inputs: [file] });
    context.stderr(summary(findings));
  }
  state.exitCode = EXIT.ok;
}
