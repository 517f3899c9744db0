import { describe } from 'vitest';
import { corpusFiles } from '../../support/corpus.js';
import { runCodecConformance } from '../conformance.js';

describe('sharegpt codec conformance on the real corpus', () => {
  runCodecConformance({ format: 'sharegpt', files: corpusFiles('sharegpt') });
});
