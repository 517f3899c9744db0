import { expect, it } from 'vitest';
import type { DecodeIssue } from '../../src/codecs/codec.js';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument, encodeDocument } from '../../src/codecs/registry.js';
import type { FormatName } from '../../src/model/format.js';
import { stripOrigins } from '../../src/model/origins.js';
import { readCorpusFile, shortName } from '../support/corpus.js';

/** Parses a file's text the way a reader would compare it: one JSON value, or the values of its JSONL lines. */
export function parseForComparison(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        try {
          return JSON.parse(line);
        } catch {
          return { unparseable: line };
        }
      });
  }
}

/**
 * The conformance suite every codec runs over every real corpus file of its format: decoding reports no
 * errors it should not, `encode(decode(x))` deep-equals `x` with origins kept (byte-identical path) and with
 * origins stripped (every message re-encoded from its parts), and untouched JSONL lines come back byte-equal.
 */
export function runCodecConformance(options: {
  readonly format: FormatName;
  readonly files: readonly string[];
  /** Issue codes that are expected on real files (e.g. drifting records) and do not fail the suite. */
  readonly allowedIssues?: readonly DecodeIssue['code'][];
}): void {
  for (const file of options.files) {
    it(`round-trips ${shortName(file)}`, () => {
      const text = readCorpusFile(file);
      const document = decodeDocument(text, { format: options.format, fileName: file });
      const unexpected = document.issues.filter(
        (issue) => issue.severity === 'error' && !(options.allowedIssues ?? []).includes(issue.code),
      );
      expect(unexpected).toEqual([]);
      const expected = parseForComparison(text);
      const encoded = encodeDocument(document);
      expect(parseForComparison(encoded)).toEqual(expected);
      if ((document.layout === 'jsonl' || document.layout === 'records') && document.issues.length === 0) {
        expect(encoded).toBe(normalizeLines(text));
      }
      const stripped = {
        ...document,
        entries: document.entries.map((entry) =>
          entry.kind === 'transcript' ? { ...entry, transcript: stripOrigins(entry.transcript) } : entry,
        ),
      };
      const { sourceText: _sourceText, ...withoutSource } = stripped;
      expect(parseForComparison(encodeDocument(withoutSource))).toEqual(expected);
      expect(documentTranscripts(document).length).toBeGreaterThan(0);
    });
  }
}

/** JSONL text as condense writes it: `\n` line ends, no blank lines, a final newline. */
export function normalizeLines(text: string): string {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const kept = lines.filter((line) => line.trim() !== '');
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}
