import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the shared corpus of real transcripts lives (read in place, never copied into the repository). */
export const CORPUS_DIR = resolve(
  process.env['CONDENSE_CORPUS'] ??
    join(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/corpus'),
);

/** True when the corpus is present; corpus suites are skipped (with a warning) when it is not. */
export const HAS_CORPUS = existsSync(CORPUS_DIR);
if (!HAS_CORPUS) console.warn(`corpus not found at ${CORPUS_DIR}: corpus tests are skipped`);

/** The corpus sub-folders, one per wire format family. */
export type CorpusDir = 'anthropic' | 'claude-code' | 'openai' | 'sharegpt';

/** Absolute paths of the data files in a corpus folder (`.meta.json` sidecars excluded), sorted. */
export function corpusFiles(dir: CorpusDir): string[] {
  if (!HAS_CORPUS) return [];
  return readdirSync(join(CORPUS_DIR, dir))
    .filter((name) => !name.endsWith('.meta.json'))
    .sort()
    .map((name) => join(CORPUS_DIR, dir, name));
}

/** The text of a corpus file. */
export function readCorpusFile(path: string): string {
  return readFileSync(path, 'utf8');
}

/** The file name without its folder, for test titles. */
export function shortName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
