import { type AggregateCounts, addToAggregate, emptyAggregate } from '../trajectory/metrics-aggregate.js';
import type { EntryResult } from './trajectory-job.js';

/** A file's totals, fed with results as they finish and summed as if they had finished in entry order. */
export interface EntryOrderCounts {
  /** Takes the result of entry `index` (0-based, each once). */
  record(index: number, result: EntryResult): void;
  /** The totals of every result recorded, added in entry order. */
  finish(): { readonly counts: AggregateCounts; readonly invalidLines: number };
}

/**
 * Results finish in whatever order workers take them, and the ratios are summed in floating point, where the
 * order of additions shows in the last digits: a run on a queue must report what the same run reports locally.
 * A result waits until every earlier entry's result is in (only the out-of-order few are held); any left waiting
 * at the end are added in entry order too.
 */
export function entryOrderCounts(): EntryOrderCounts {
  const counts = emptyAggregate();
  const waiting = new Map<number, EntryResult>();
  let next = 0;
  let invalidLines = 0;
  const add = (result: EntryResult): void => {
    if (result.outcome === 'invalid') invalidLines++;
    else addToAggregate(counts, result.outcome, result.metrics);
  };
  return {
    record(index, result) {
      waiting.set(index, result);
      for (let ready = waiting.get(next); ready !== undefined; ready = waiting.get(next)) {
        waiting.delete(next);
        next++;
        add(ready);
      }
    },
    finish() {
      for (const index of [...waiting.keys()].sort((left, right) => left - right))
        add(waiting.get(index) as EntryResult);
      waiting.clear();
      return { counts, invalidLines };
    },
  };
}
