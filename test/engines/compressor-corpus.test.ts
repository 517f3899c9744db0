import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument, encodeDocument } from '../../src/codecs/registry.js';
import { createCompressor } from '../../src/engines/compressor/create-compressor.js';
import type { Transcript } from '../../src/model/transcript.js';
import { verifyTranscript } from '../../src/model/verify.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { corpusFiles, readCorpusFile, shortName } from '../support/corpus.js';
import { compactOrBest } from './support.js';

const FILES = [
  ...corpusFiles('anthropic'),
  ...corpusFiles('claude-code'),
  ...corpusFiles('openai'),
  ...corpusFiles('sharegpt'),
];
const counter = createRoughCounter();

describe('compressor engine on the real corpus', () => {
  it.each(FILES.map((file) => [shortName(file), file]))(
    'compacts %s into valid transcripts that re-encode',
    async (_name, file) => {
      const document = decodeDocument(readCorpusFile(file));
      const outputs: Transcript[] = [];
      for (const transcript of documentTranscripts(document)) {
        const contextLength = Math.max(4_000, Math.floor(counter.countTranscript(transcript) / 3));
        const {
          transcript: output,
          report,
          overflow,
        } = await compactOrBest(() =>
          createCompressor({ contextLength }).compress(transcript, { force: true }),
        );
        if (!overflow) expect(report.tokensAfter.rough).toBeLessThanOrEqual(contextLength);
        for (const provider of ['openai', 'anthropic'] as const) {
          const before = new Set(
            verifyTranscript(transcript, { provider }).map((violation) => violation.code),
          );
          const added = verifyTranscript(output, { provider }).filter(
            (violation) => !before.has(violation.code),
          );
          expect(added, `${provider}: ${JSON.stringify(added.slice(0, 3))}`).toEqual([]);
        }
        expect(report.tokensAfter.rough).toBeLessThanOrEqual(report.tokensBefore.rough);
        outputs.push(output);
      }
      let index = 0;
      const entries = document.entries.map((entry) =>
        entry.kind === 'transcript' ? { ...entry, transcript: outputs[index++] as never } : entry,
      );
      const text = encodeDocument({ ...document, entries });
      expect(documentTranscripts(decodeDocument(text, { format: document.format })).length).toBe(
        outputs.length,
      );
    },
  );
});
