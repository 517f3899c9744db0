import type { JsonLinesReader } from '../codecs/decode-document.js';
import { lineChunks } from '../codecs/encode-document.js';
import type { RedactOptions } from './options.js';
import { type DocumentFinding, redactDocumentEntry } from './redact-document.js';
import { createRedactor } from './redactor.js';

/**
 * Redacts a JSONL file of one transcript per line a line at a time: yields, in chunks, exactly the text that
 * encoding `redactDocument` of the whole decoded file gives, and pushes the same findings into `findings` as it
 * goes. Each line's transcript is decoded, redacted and encoded before the next is read, so none outlives its
 * line: on a large dataset, holding every transcript at once costs more in garbage collection than the
 * decoding itself.
 */
export function* redactJsonLines(
  reader: JsonLinesReader,
  findings: DocumentFinding[],
  options: RedactOptions = {},
): Generator<string> {
  yield* lineChunks(redactedLines(reader, findings, options));
}

function* redactedLines(
  reader: JsonLinesReader,
  findings: DocumentFinding[],
  options: RedactOptions,
): Generator<string> {
  const redactor = createRedactor(options);
  let index = 0;
  for (const entry of reader.lines()) {
    const redacted = redactDocumentEntry(entry, index++, redactor, findings);
    if (redacted.kind === 'invalid') {
      yield redacted.text;
      continue;
    }
    // As `encodeDocument` writes a line: its original bytes when it encodes to the very value read from it.
    const encoded = reader.codec.encode(redacted.transcript);
    yield entry.kind === 'transcript' && encoded === entry.value ? entry.text : JSON.stringify(encoded);
  }
}
