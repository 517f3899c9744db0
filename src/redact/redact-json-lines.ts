import type { JsonLineEntry, JsonLinesReader } from '../codecs/decode-document.js';
import { lineChunks } from '../codecs/encode-document.js';
import type { RedactOptions } from './options.js';
import { type DocumentFinding, redactDocumentEntry } from './redact-document.js';
import { createRedactor, type Redactor } from './redactor.js';

/** A JSONL line whose redaction failed: it is left out of the output, never written as read. */
export interface RedactLineFailure {
  /** 1-based line in the file. */
  readonly line: number;
  /** What went wrong, as the error said it. */
  readonly message: string;
}

/**
 * Redacts a JSONL file of one transcript per line a line at a time: yields, in chunks, exactly the text that
 * encoding `redactDocument` of the whole decoded file gives, and pushes the same findings into `findings` as it
 * goes. Each line's transcript is decoded, redacted and encoded before the next is read, so none outlives its
 * line: on a large dataset, holding every transcript at once costs more in garbage collection than the
 * decoding itself.
 *
 * With `failures`, a line whose redaction throws is pushed there and left out, and the other lines are still
 * redacted: one bad line of a dataset does not cost the whole file, and a line that could not be redacted is
 * never written. Without it, the error is thrown.
 */
export function* redactJsonLines(
  reader: JsonLinesReader,
  findings: DocumentFinding[],
  options: RedactOptions = {},
  failures?: RedactLineFailure[],
): Generator<string> {
  yield* lineChunks(redactedLines(reader, findings, options, failures));
}

function* redactedLines(
  reader: JsonLinesReader,
  findings: DocumentFinding[],
  options: RedactOptions,
  failures: RedactLineFailure[] | undefined,
): Generator<string> {
  const redactor = createRedactor(options);
  let index = 0;
  for (const entry of reader.lines()) {
    const lineFindings: DocumentFinding[] = [];
    let text: string;
    try {
      text = redactedLine(reader, entry, index++, redactor, lineFindings);
    } catch (error) {
      if (failures === undefined) throw error;
      failures.push({ line: entry.line, message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    for (const finding of lineFindings) findings.push(finding);
    yield text;
  }
}

function redactedLine(
  reader: JsonLinesReader,
  entry: JsonLineEntry,
  index: number,
  redactor: Redactor,
  findings: DocumentFinding[],
): string {
  const redacted = redactDocumentEntry(entry, index, redactor, findings);
  if (redacted.kind === 'invalid') return redacted.text;
  // As `encodeDocument` writes a line: its original bytes when it encodes to the very value read from it.
  const encoded = reader.codec.encode(redacted.transcript);
  return entry.kind === 'transcript' && encoded === entry.value ? entry.text : JSON.stringify(encoded);
}
