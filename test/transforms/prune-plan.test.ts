import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/message.js';
import { createRoughCounter } from '../../src/tokens/rough-counter.js';
import { dedupeToolResults } from '../../src/transforms/dedupe-tool-results.js';
import { digestToolResults } from '../../src/transforms/digest-tool-results.js';
import {
  type PruneReport,
  type PruneToolOutputsOptions,
  type PruneToolOutputsResult,
  planPruning,
  pruneBoundary,
  pruneToolOutputs,
} from '../../src/transforms/prune-tool-outputs.js';
import { shrinkToolArguments } from '../../src/transforms/shrink-tool-arguments.js';
import { stripImages } from '../../src/transforms/strip-images.js';
import { transcriptArb } from './arbitraries.js';
import { deepFreeze } from './support.js';

const RUNS = { numRuns: Number(process.env['PROPERTY_RUNS'] ?? 150) };
const counter = createRoughCounter();

/** `pruneToolOutputs` as it was before it was planned message by message: the four passes one after another. */
function oracle(messages: readonly Message[], options: PruneToolOutputsOptions): PruneToolOutputsResult {
  const boundary = pruneBoundary(messages, options);
  const minChars = options.minChars ?? 200;
  const deduped = dedupeToolResults(messages, { minChars, keep: options.dedupeKeep ?? 'newest' });
  const stripped = stripImages(deduped.messages, {
    before: boundary,
    toolResultsOnly: !(options.stripMessageImages ?? false),
  });
  const digested = digestToolResults(stripped.messages, { before: boundary, minChars });
  const shrunk = shrinkToolArguments(digested.messages, { before: boundary });
  return {
    messages: shrunk.messages,
    report: {
      deduplicated: deduped.deduplicated,
      digested: digested.digested,
      argumentsShrunk: shrunk.shrunk,
      imagesStripped: stripped.stripped,
    },
    boundary,
  };
}

const optionsArb: fc.Arbitrary<PruneToolOutputsOptions> = fc.record(
  {
    counter: fc.constant(counter),
    protectLastN: fc.nat({ max: 12 }),
    protectTailTokens: fc.nat({ max: 3_000 }),
    dedupeKeep: fc.constantFrom('newest' as const, 'earliest' as const),
    stripMessageImages: fc.boolean(),
  },
  { requiredKeys: ['counter', 'protectLastN'] },
);

function sum(left: PruneReport, right: PruneReport): PruneReport {
  return {
    deduplicated: left.deduplicated + right.deduplicated,
    digested: left.digested + right.digested,
    argumentsShrunk: left.argumentsShrunk + right.argumentsShrunk,
    imagesStripped: left.imagesStripped + right.imagesStripped,
  };
}

describe('planPruning', () => {
  it('pruneToolOutputs gives what the four passes in a row gave: messages, report, boundary, same array when unchanged', () => {
    fc.assert(
      fc.property(transcriptArb, optionsArb, (messages, options) => {
        const input = deepFreeze(messages);
        const expected = oracle(input, options);
        const actual = pruneToolOutputs(input, options);
        expect(actual.messages).toEqual(expected.messages);
        expect(actual.report).toEqual(expected.report);
        expect(actual.boundary).toBe(expected.boundary);
        expect(actual.messages === input).toBe(expected.messages === input);
        actual.messages.forEach((message, index) => {
          if (expected.messages[index] === input[index]) expect(message).toBe(input[index]);
        });
      }),
      RUNS,
    );
  });

  it('makes each message once, in any order, and reports additively over disjoint sets of messages', () => {
    fc.assert(
      fc.property(
        transcriptArb.chain((messages) =>
          fc.tuple(
            fc.constant(messages),
            optionsArb,
            fc.shuffledSubarray([...messages.keys()]),
            fc.func(fc.boolean()),
          ),
        ),
        ([messages, options, order, inFirst]) => {
          const input = deepFreeze(messages);
          const expected = oracle(input, options);
          const plan = planPruning(input, options);
          for (const index of order) {
            const made = plan.messageAt(index);
            expect(made).toEqual(expected.messages[index]);
            expect(plan.messageAt(index)).toBe(made);
          }
          const all = [...input.keys()];
          const first = all.filter((index) => inFirst(index));
          const second = all.filter((index) => !inFirst(index));
          expect(sum(plan.reportFor(first), plan.reportFor(second))).toEqual(expected.report);
          expect(plan.whole().messages).toEqual(expected.messages);
          // Messages before digests: deduplicated and image-stripped only, the protected tail as pruned.
          plan.base.forEach((message, index) => {
            if (index >= plan.boundary) expect(message).toBe(plan.messageAt(index));
            expect(message.role).toBe(input[index]?.role);
          });
        },
      ),
      RUNS,
    );
  });
});
