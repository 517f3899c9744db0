import { describe } from 'vitest';
import { corpusFiles } from '../../support/corpus.js';
import { runCodecConformance } from '../conformance.js';

describe('claude-code codec conformance on the real corpus', () => {
  runCodecConformance({ format: 'claude-code', files: corpusFiles('claude-code') });
});
