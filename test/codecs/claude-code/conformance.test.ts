import { describe } from 'vitest';
import { corpusFiles, HAS_CORPUS } from '../../support/corpus.js';
import { runCodecConformance } from '../conformance.js';

describe.skipIf(!HAS_CORPUS)('claude-code codec conformance on the real corpus', () => {
  runCodecConformance({ format: 'claude-code', files: corpusFiles('claude-code') });
});
