import { describe, expect, it } from 'vitest';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import { FORMAT_NAMES } from '../../src/model/format.js';
import { type CorpusDir, corpusFiles, readCorpusFile, shortName } from '../support/corpus.js';
import { conversionFindings } from './check-conversion.js';

const DIRS: readonly CorpusDir[] = ['anthropic', 'claude-code', 'openai', 'sharegpt'];

/**
 * Every transcript of every corpus file (706, decoded once per file), converted to every format. A full sweep:
 * about 15 s on 2 cores.
 */
describe('conversion of every corpus transcript to every format', () => {
  for (const dir of DIRS) {
    for (const file of corpusFiles(dir)) {
      it(`${dir}/${shortName(file)} converts without an unreported loss`, () => {
        const transcripts = documentTranscripts(decodeDocument(readCorpusFile(file))).filter(
          (transcript) => transcript.messages.length > 0,
        );
        const findings: string[] = [];
        for (const to of FORMAT_NAMES) {
          transcripts.forEach((transcript, index) => {
            for (const finding of conversionFindings(transcript, to))
              findings.push(`#${index} → ${to}: ${finding}`);
          });
        }
        expect(findings.slice(0, 10)).toEqual([]);
      });
    }
  }
});
