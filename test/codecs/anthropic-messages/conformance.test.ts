import { describe } from 'vitest';
import { corpusFiles } from '../../support/corpus.js';
import { runCodecConformance } from '../conformance.js';

describe('anthropic codec conformance over the real corpus', () => {
  runCodecConformance({ format: 'anthropic', files: corpusFiles('anthropic') });
});
