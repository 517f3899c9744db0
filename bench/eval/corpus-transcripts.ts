import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentTranscripts } from '../../src/codecs/document.js';
import { decodeDocument } from '../../src/codecs/registry.js';
import type { Transcript } from '../../src/model/transcript.js';

/** Where the shared corpus lives (read in place). */
export const CORPUS_DIR = resolve(
  process.env['CONDENSE_CORPUS'] ??
    join(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/corpus'),
);

/** One corpus transcript with where it came from. */
export interface CorpusTranscript {
  readonly group: string;
  readonly file: string;
  readonly index: number;
  readonly transcript: Transcript;
}

/** Every transcript of the corpus with at least `minMessages` messages, decoded with condense's own codecs. */
export function corpusTranscripts(minMessages = 6): CorpusTranscript[] {
  const out: CorpusTranscript[] = [];
  for (const group of ['anthropic', 'claude-code', 'openai', 'sharegpt']) {
    for (const name of readdirSync(join(CORPUS_DIR, group)).sort()) {
      if (name.endsWith('.meta.json')) continue;
      const document = decodeDocument(readFileSync(join(CORPUS_DIR, group, name), 'utf8'), {
        fileName: name,
      });
      documentTranscripts(document).forEach((transcript, index) => {
        if (transcript.messages.length >= minMessages) out.push({ group, file: name, index, transcript });
      });
    }
  }
  return out;
}
