import '../support/property-seed.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engines/registry.js';
import type { Transcript } from '../../src/model/transcript.js';
import { classifyByProvenance, classifyMessages } from '../../src/report/classify-messages.js';
import { deriveProvenance } from '../../src/report/derive-provenance.js';
import { provenanceFailures } from '../../src/testing/provenance-invariants.js';
import { buildCodingSession } from '../../src/testing/transcript-builders.js';
import { findLatestUserRequest } from '../../src/transforms/find-latest-user-request.js';
import { compactOrBest } from '../engines/support.js';
import { brokenTranscriptArb, transcriptArb } from '../transforms/arbitraries.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 40);

/** Coding sessions of random length and output size, beside the transforms' random transcripts. */
const sessionArb = fc
  .record({ steps: fc.integer({ min: 1, max: 30 }), system: fc.boolean() })
  .map(({ steps, system }) => buildCodingSession({ steps, system }));

const transcripts = fc.oneof(
  sessionArb,
  transcriptArb.map((messages): Transcript => ({ messages })),
  brokenTranscriptArb.map((messages): Transcript => ({ messages })),
);

describe('the provenance the engines record', () => {
  it.each(['compressor', 'rules'] as const)(
    'classifies every message as the re-derivation from the messages does (%s)',
    async (engine) => {
      await fc.assert(
        fc.asyncProperty(transcripts, fc.constantFrom(2_000, 4_000, 8_000), async (input, window) => {
          const result = await compactOrBest(() =>
            createEngine(engine, { contextLength: window }).compress(input, { force: true }),
          );
          const { report } = result;
          const before = input;
          const after = result.transcript;
          expect(report.provenance).toBeDefined();
          expect(provenanceFailures(before.messages, after.messages, report.provenance)).toEqual([]);
          // The last-resort layout keeps the latest request out of the folded middle: only provenance knows.
          const latest = findLatestUserRequest(input.messages);
          const bounds = report.boundaries;
          fc.pre(bounds === undefined || latest < bounds.headEnd || latest >= bounds.tailStart);
          const recorded = classifyMessages(before.messages, after.messages, report);
          const derived = classifyByProvenance(
            before.messages,
            after.messages,
            deriveProvenance(before.messages, after.messages, report),
          );
          expect(recorded).toEqual(derived);
        }),
        { numRuns: RUNS },
      );
    },
  );
});
