import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryOrderCounts } from '../../src/batch/entry-order-counts.js';
import type { EntryResult } from '../../src/batch/trajectory-job.js';
import { addToAggregate, emptyAggregate } from '../../src/trajectory/metrics-aggregate.js';
import type { TrajectoryMetrics } from '../../src/trajectory/trajectory-metrics.js';

function result(ratio: number, index: number): EntryResult {
  if (index % 7 === 3) return { outcome: 'invalid' } as EntryResult;
  const metrics = {
    originalTokens: 1000 + index,
    compressedTokens: 300,
    originalTurns: 10,
    compressedTurns: 4,
    summarizationApiCalls: 0,
    summarizationErrors: 0,
    stillOverLimit: false,
    strategy: 'summarize',
    wasCompressed: true,
    compressionRatio: ratio,
    tokensSaved: 700 + index,
    turnsRemoved: 6,
  } as unknown as TrajectoryMetrics;
  return { outcome: 'compressed', metrics } as EntryResult;
}

describe('entryOrderCounts', () => {
  it('sums results in entry order whatever order they finish in, and counts every one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }),
        fc.infiniteStream(fc.nat()),
        (ratios, shuffle) => {
          const results = ratios.map((ratio, index) => result(ratio, index));
          const expected = emptyAggregate();
          let invalid = 0;
          for (const entry of results) {
            if (entry.outcome === 'invalid') invalid++;
            else addToAggregate(expected, entry.outcome, entry.metrics);
          }
          const order = results.map((_, index) => index);
          const picks = shuffle.take(order.length);
          for (const [position, pick] of [...picks].entries()) {
            const other = position + (pick % (order.length - position));
            [order[position], order[other]] = [order[other] as number, order[position] as number];
          }
          const totals = entryOrderCounts();
          for (const index of order) totals.record(index, results[index] as EntryResult);
          const finished = totals.finish();
          expect(finished.counts).toEqual(expected);
          expect(finished.invalidLines).toBe(invalid);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('adds results left behind a missing entry, in entry order', () => {
    const totals = entryOrderCounts();
    totals.record(2, result(0.5, 2));
    totals.record(1, result(0.25, 1));
    const { counts } = totals.finish();
    expect(counts.compressed).toBe(2);
    expect(counts.ratioSum).toBe(0.25 + 0.5);
  });
});
