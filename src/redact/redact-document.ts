import type { DocumentEntry, TranscriptDocument } from '../codecs/document.js';
import type { RedactOptions } from './options.js';
import { redactTranscriptWith, type TranscriptFinding } from './redact-transcript.js';
import { createRedactor, type Redactor } from './redactor.js';

/** A finding in a file: which entry (transcript, or unreadable line written back as is) and where in it. */
export interface DocumentFinding extends TranscriptFinding {
  /** Index of the entry in the document. */
  readonly entry: number;
  /** 1-based line of the entry in a JSONL file. */
  readonly line?: number;
}

/** A redacted document and what was masked in it. */
export interface RedactDocumentResult {
  readonly document: TranscriptDocument;
  readonly findings: readonly DocumentFinding[];
}

/**
 * Redacts a decoded file: every transcript, and the raw text of lines that could not be parsed (they are
 * written back verbatim, so they must not carry secrets either). Untouched lines keep their original bytes.
 */
export function redactDocument(
  document: TranscriptDocument,
  options: RedactOptions = {},
): RedactDocumentResult {
  const redactor = createRedactor(options);
  const findings: DocumentFinding[] = [];
  let changed = false;
  const entries = document.entries.map((entry, index): DocumentEntry => {
    const next = redactDocumentEntry(entry, index, redactor, findings);
    changed ||= next !== entry;
    return next;
  });
  return { document: changed ? { ...document, entries } : document, findings };
}

/**
 * Redacts entry `index` of a document (see {@link redactDocument}), pushing its findings; returns the same entry
 * when nothing was found.
 */
export function redactDocumentEntry(
  entry: DocumentEntry,
  index: number,
  redactor: Redactor,
  findings: DocumentFinding[],
): DocumentEntry {
  const line = entry.line === undefined ? {} : { line: entry.line };
  if (entry.kind === 'invalid') {
    const result = redactor.text(entry.text);
    for (const finding of result.findings) findings.push({ ...finding, path: [], entry: index, ...line });
    return result.findings.length === 0 ? entry : { ...entry, text: result.text };
  }
  const result = redactTranscriptWith(entry.transcript, redactor);
  for (const finding of result.findings) findings.push({ ...finding, entry: index, ...line });
  return result.transcript === entry.transcript ? entry : { ...entry, transcript: result.transcript };
}
