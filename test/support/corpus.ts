import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** The shared corpus of real transcripts (read in place, never copied into the repository). */
const SHARED_CORPUS_DIR = resolve(process.env['CONDENSE_CORPUS'] ?? join(HERE, '../../../shared/corpus'));

/** The committed sample of it, same layout and file names (see `test/fixtures/SOURCES.md`). */
export const SAMPLE_CORPUS_DIR = join(HERE, '../fixtures/corpus');

/** True when the shared corpus is there (benchmarks that need it skip their corpus rows otherwise). */
export const HAS_CORPUS = existsSync(SHARED_CORPUS_DIR);

/**
 * True when the corpus suites read the whole shared corpus: the `corpus` test project and the benchmarks. The
 * `unit` and `e2e` projects set `CONDENSE_TEST_CORPUS=sample`, and without the shared corpus every layer reads the
 * committed sample, so that the suites run on a bare clone; the few tests that need a particular whole file are
 * skipped with `skipIf(!FULL_CORPUS)`.
 */
export const FULL_CORPUS = HAS_CORPUS && process.env['CONDENSE_TEST_CORPUS'] !== 'sample';

/** Where the corpus suites read their transcripts: the shared corpus or the sample. */
export const CORPUS_DIR = FULL_CORPUS ? SHARED_CORPUS_DIR : SAMPLE_CORPUS_DIR;

/** The corpus sub-folders, one per wire format family. */
export type CorpusDir = 'anthropic' | 'claude-code' | 'openai' | 'sharegpt';

/** Absolute paths of the data files in a corpus folder (`.meta.json` sidecars excluded), sorted. */
export function corpusFiles(dir: CorpusDir): string[] {
  return readdirSync(join(CORPUS_DIR, dir))
    .filter((name) => !name.endsWith('.meta.json'))
    .sort()
    .map((name) => join(CORPUS_DIR, dir, name));
}

/**
 * True when a test that needs this particular file can run: always in the corpus layer (a missing file then
 * fails the test), and in the sample layer when the sample has a file of that name.
 */
export function inCorpus(dir: CorpusDir, name: string): boolean {
  return FULL_CORPUS || existsSync(join(CORPUS_DIR, dir, name));
}

/** The text of a corpus file. */
export function readCorpusFile(path: string): string {
  return readFileSync(path, 'utf8');
}

/** The file name without its folder, for test titles. */
export function shortName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
