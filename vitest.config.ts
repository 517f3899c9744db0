import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** The suites that read transcripts through `test/support/corpus.ts`: the corpus layer runs them again. */
const corpusSuites = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.test.ts'))
  .map((path) => `test/${path.replaceAll('\\', '/')}`)
  .filter((path) => readFileSync(join(ROOT, path), 'utf8').includes('support/corpus.js'))
  .sort();

/**
 * Four layers (README, "Tests"): `unit` and `e2e` read the committed corpus sample and run on a bare clone
 * (`npm test`); `corpus` runs the corpus suites over the whole shared corpus (`npm run test:corpus`); `scale`
 * holds the dataset-size runs that start fleets of processes (`npm run test:scale`). `npm run test:all`, what CI
 * runs, is all four. The e2e, corpus and scale layers run the built binary: the npm scripts build first.
 *
 * Files share their worker's module cache (`isolate: false`): re-importing the whole library for each of ~200
 * files cost more CPU than the tests themselves. It holds because tests keep no state in modules (builders
 * derive ids from their input, and caches are keyed by content).
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    // Vitest's default leaves a core idle (one worker on two cores); the tests spend much of their time waiting
    // on child processes and sockets, so every core gets a worker.
    maxWorkers: '100%',
    setupFiles: ['test/support/property-seed.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/scale/**'],
          env: { CONDENSE_TEST_CORPUS: 'sample' },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          env: { CONDENSE_TEST_CORPUS: 'sample' },
        },
      },
      {
        extends: true,
        test: {
          name: 'scale',
          include: ['test/scale/**/*.test.ts'],
          env: { CONDENSE_TEST_CORPUS: 'sample' },
        },
      },
      {
        extends: true,
        test: { name: 'corpus', include: corpusSuites, env: { CONDENSE_TEST_CORPUS: 'full' } },
      },
    ],
  },
});
