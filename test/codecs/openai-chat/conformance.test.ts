import { describe } from 'vitest';
import { corpusFiles, HAS_CORPUS } from '../../support/corpus.js';
import { runCodecConformance } from '../conformance.js';

describe.skipIf(!HAS_CORPUS)('openai codec conformance over the real corpus', () => {
  runCodecConformance({ format: 'openai', files: corpusFiles('openai') });
});
