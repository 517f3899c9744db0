import { describe, expect, it } from 'vitest';
import { documentTranscripts, type TranscriptDocument } from '../../src/codecs/document.js';
import { decodeDocument, encodeDocument } from '../../src/codecs/registry.js';
import type { FormatName } from '../../src/model/format.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { redactDocument } from '../../src/redact/index.js';
import { parseForComparison } from '../codecs/conformance.js';
import { type CorpusDir, corpusFiles, inCorpus, readCorpusFile, shortName } from '../support/corpus.js';
import { FAKE } from './fixtures.js';

const DIRS: readonly (readonly [CorpusDir, FormatName])[] = [
  ['anthropic', 'anthropic'],
  ['claude-code', 'claude-code'],
  ['openai', 'openai'],
  ['sharegpt', 'sharegpt'],
];

function violationCodes(document: TranscriptDocument): string[][] {
  return documentTranscripts(document).map((transcript) =>
    verifyTranscript(transcript)
      .map((violation) => violation.code)
      .sort(),
  );
}

describe('redaction over the real corpus', () => {
  for (const [dir, format] of DIRS) {
    for (const file of corpusFiles(dir)) {
      it(`${dir}/${shortName(file)} stays readable, valid and clean`, () => {
        const text = readCorpusFile(file);
        const document = decodeDocument(text, { format, fileName: file });
        const { document: redacted, findings } = redactDocument(document);
        const encoded = encodeDocument(redacted);

        // The output is still a file of the same format that round-trips through its codec.
        const reread = decodeDocument(encoded, { format, fileName: file });
        expect(parseForComparison(encodeDocument(reread))).toEqual(parseForComparison(encoded));
        expect(documentTranscripts(reread).length).toBe(documentTranscripts(document).length);

        // Redaction breaks no provider rule the original did not already break.
        expect(violationCodes(reread)).toEqual(violationCodes(document));

        // Nothing is left to find once written out and read back.
        expect(redactDocument(reread).findings).toEqual([]);

        // A file without secrets comes back byte for byte.
        if (findings.length === 0) expect(encoded).toBe(encodeDocument(document));
      });
    }
  }
});

describe('a secret planted in one record of a real JSONL file', () => {
  const cases = [
    ['claude-code', 'marot__spotter__short.jsonl', '"text":"'],
    ['claude-code', 'daaain__claude-code-log__cb2e607c-c758-415a-8b45-c49e4631906a.jsonl', '"text":"'],
    ['openai', 'All-Hands-AI__OpenHands__multi_swe_bench__output.jsonl', '"content":"'],
    ['sharegpt', 'ruanjianershu__HermesWith__trajectory_samples.jsonl', '"value": "'],
  ] as const;
  for (const [dir, name, marker] of cases)
    it.skipIf(!inCorpus(dir, name))(`changes only the lines of that record (${dir}/${name})`, () => {
      const file = corpusFiles(dir).find((path) => shortName(path) === name) as string;
      const lines = readCorpusFile(file).split('\n');
      const target = lines.findIndex((line) => line.includes(marker));
      const planted = [...lines];
      planted[target] = (lines[target] as string).replace(
        marker,
        `${marker}export OPENAI_API_KEY=${FAKE.openai} `,
      );
      const document = decodeDocument(planted.join('\n'), { format: dir });
      const { document: redacted, findings } = redactDocument(document);
      expect(findings.map((finding) => finding.kind)).toContain('openai-key');
      const out = encodeDocument(redacted).split('\n');
      expect(out.join('\n')).not.toContain(FAKE.openai.slice(6, -4));
      const changed = out.flatMap((line, index) => (line === planted[index] ? [] : [index]));
      expect(changed).toContain(target);
      expect(changed.length).toBeLessThanOrEqual(3);
    });
});
