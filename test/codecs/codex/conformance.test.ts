import { describe } from 'vitest';
import { fixtureFiles } from '../../support/fixtures.js';
import { runCodecConformance } from '../conformance.js';

describe('codex codec conformance on real and derived Codex rollouts', () => {
  // The first CLI's one-document rollout is read too, but written back as one JSONL line: see rollout.test.ts.
  runCodecConformance({
    format: 'codex',
    files: fixtureFiles('codex').filter((file) => file.endsWith('.jsonl')),
  });
});
