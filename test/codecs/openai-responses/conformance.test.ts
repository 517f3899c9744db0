import { describe } from 'vitest';
import { fixtureFiles } from '../../support/fixtures.js';
import { runCodecConformance } from '../conformance.js';

describe('openai-responses codec conformance on recorded Responses API conversations', () => {
  runCodecConformance({ format: 'openai-responses', files: fixtureFiles('openai-responses') });
});
