import { describe, expect, it } from 'vitest';
import { corpusFiles, readCorpusFile, shortName } from '../support/corpus.js';
import { ENGINES, sessionFindings } from './check-session.js';

/** Every real Claude Code session (main and subagent files) through every engine: about 10 s on 2 cores. */
describe('compacted Claude Code sessions replay as the engine wrote them', () => {
  for (const file of corpusFiles('claude-code')) {
    it(`${shortName(file)} keeps its chain through every engine`, async () => {
      expect(await sessionFindings(readCorpusFile(file), ENGINES)).toEqual([]);
    });
  }
});
