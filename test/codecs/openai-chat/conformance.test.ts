import { describe } from 'vitest';
import { corpusFiles } from '../../support/corpus.js';
import { runCodecConformance } from '../conformance.js';

describe('openai codec conformance over the real corpus', () => {
  runCodecConformance({ format: 'openai', files: corpusFiles('openai') });
});
