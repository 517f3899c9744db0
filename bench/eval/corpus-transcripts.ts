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

/**
 * The 60 transcripts of the project's baseline measurement of Hermes and LangChain (research/baseline.md): the
 * 49 longest tau-bench airline trajectories, the SWE-agent runs with structured tool calls, the OpenHands
 * multi-SWE-bench instances and the three Anthropic-derived Claude Code sessions.
 */
export function isBaselineSelection(
  item: CorpusTranscript,
  all: readonly CorpusTranscript[],
  tokens: (item: CorpusTranscript) => number,
): boolean {
  if (item.group === 'anthropic') return true;
  if (item.file.includes('multi_swe_bench')) return true;
  if (item.file.startsWith('SWE-agent__')) {
    return item.transcript.messages.some((message) =>
      message.parts.some((part) => part.type === 'tool-call'),
    );
  }
  if (item.file.includes('tau-bench')) {
    const ranked = all
      .filter((other) => other.file === item.file)
      .sort((left, right) => tokens(right) - tokens(left));
    return ranked.slice(0, 49).includes(item);
  }
  return false;
}
