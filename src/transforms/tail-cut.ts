import type { Message } from '../model/message.js';

/** Where a token walk from the end put the tail, and which rule decided. */
export interface TailWalk {
  readonly cut: number;
  /** The fewest messages the tail keeps. */
  readonly minTail: number;
  readonly rule: 'budget' | 'raw-budget' | 'floor';
}

/** Hermes caps the message floor of the compaction tail at this many messages. */
const FLOOR_CAP = 8;
/** One oversized message may overrun the budget up to this factor before the walk stops. */
const SOFT_CEILING = 1.5;

/**
 * Hermes' tail walk (b.4): from the last message back to `headEnd`, keep adding messages while the total stays
 * under 1.5 × `budget` or the tail is shorter than its floor (`max(3, min(protectLastN, 8))`, never more than
 * the region allows). When everything fits under the soft ceiling the walk is repeated with the raw budget,
 * so a transcript just over the threshold still has something to compact. Unlike Hermes, the message that
 * overflows the raw budget is left out on that second walk too. `tokensAt` prices the message at an index.
 */
export function walkTail(
  messages: readonly Message[],
  headEnd: number,
  budget: number,
  protectLastN: number,
  tokensAt: (index: number) => number,
  floorOverride?: number,
): TailWalk {
  const n = messages.length;
  const available = Math.max(0, n - headEnd - 1);
  const floor = floorOverride ?? Math.max(3, Math.min(protectLastN, FLOOR_CAP));
  const minTail = available > 1 ? Math.min(floor, Math.max(Math.min(3, floor), available - 2), available) : 0;
  const soft = Math.floor(budget * SOFT_CEILING);
  let { cut, total } = walk(n, headEnd, minTail, soft, tokensAt);
  let rule: TailWalk['rule'] = 'budget';
  if (cut <= headEnd && total > 0 && total <= soft) {
    cut = walk(n, headEnd, minTail, budget, tokensAt).cut;
    rule = 'raw-budget';
  }
  if (cut > n - minTail) {
    cut = n - minTail;
    rule = 'floor';
  }
  if (cut <= headEnd) {
    cut = Math.max(n - Math.max(minTail, 1), headEnd + 1);
    rule = 'floor';
  }
  return { cut: Math.min(cut, n), minTail, rule };
}

/**
 * Messages from the last back to `headEnd` while their tokens stay within `limit`, or the tail is shorter than
 * `minTail`: where the tail then starts, and the tokens it holds.
 */
function walk(
  n: number,
  headEnd: number,
  minTail: number,
  limit: number,
  tokensAt: (index: number) => number,
): { cut: number; total: number } {
  let total = 0;
  let cut = n;
  for (let index = n - 1; index >= headEnd; index--) {
    const cost = tokensAt(index);
    if (total + cost > limit && n - index >= minTail) break;
    total += cost;
    cut = index;
  }
  return { cut, total };
}
