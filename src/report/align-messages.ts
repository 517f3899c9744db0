import type { Message } from '../model/message.js';
import type { Part } from '../model/part.js';

/** What {@link alignMessages} may not match. */
export interface AlignConstraints {
  /** Before indices that have no counterpart (the folded middle of a compressor pass). */
  readonly unmatchedBefore?: (index: number) => boolean;
  /** After indices that have no counterpart (a new checkpoint message). */
  readonly unmatchedAfter?: (index: number) => boolean;
}

/** For each after message, the before message it is (or was rewritten from), in order. */
export interface Alignment {
  /** After index → before index, or -1 when the after message has no source. */
  readonly sourceOf: readonly number[];
  /** After index → true when the message is its source untouched (same object, parts or wire origin). */
  readonly untouched: readonly boolean[];
}

// Above this many cells a segment is matched greedily instead of by dynamic programming (memory and time).
const MAX_CELLS = 4_000_000;
const GREEDY_WINDOW = 64;

/**
 * Matches the messages of a compacted transcript to the ones they came from. Engines never reorder messages,
 * so the match is monotone: untouched messages (same object, same parts array or same wire origin) anchor it,
 * and between anchors a weighted longest-common-subsequence pairs messages of the same role, preferring the
 * same id, shared part objects and shared tool-call ids. On ties the later before message wins, which is
 * where the rules engine folds an assistant run.
 */
export function alignMessages(
  before: readonly Message[],
  after: readonly Message[],
  constraints: AlignConstraints = {},
): Alignment {
  const skipBefore = constraints.unmatchedBefore ?? (() => false);
  const skipAfter = constraints.unmatchedAfter ?? (() => false);
  const sourceOf: number[] = after.map(() => -1);
  const untouched: boolean[] = after.map(() => false);
  const anchors = findAnchors(before, after, skipBefore, skipAfter);
  let beforeStart = 0;
  let afterStart = 0;
  for (const [afterIndex, beforeIndex] of [...anchors, [after.length, before.length] as const]) {
    if (afterIndex < after.length) {
      sourceOf[afterIndex] = beforeIndex;
      untouched[afterIndex] = true;
    }
    const segment = { beforeStart, beforeEnd: beforeIndex, afterStart, afterEnd: afterIndex };
    const score = (b: number, a: number): number =>
      skipBefore(b) || skipAfter(a) ? 0 : similarity(before[b] as Message, after[a] as Message);
    matchSegment(segment, score, sourceOf);
    beforeStart = beforeIndex + 1;
    afterStart = afterIndex + 1;
  }
  return { sourceOf, untouched };
}

function sameMessage(a: Message, b: Message): boolean {
  if (a === b || a.parts === b.parts) return true;
  const origin = a.meta?.origin;
  return origin !== undefined && origin === b.meta?.origin && origin.parts === b.parts;
}

/** Untouched messages, kept in increasing order on both sides. */
function findAnchors(
  before: readonly Message[],
  after: readonly Message[],
  skipBefore: (index: number) => boolean,
  skipAfter: (index: number) => boolean,
): [number, number][] {
  const byObject = new Map<unknown, number>();
  before.forEach((message, index) => {
    if (skipBefore(index)) return;
    for (const key of [message, message.parts, message.meta?.origin]) {
      if (key !== undefined && !byObject.has(key)) byObject.set(key, index);
    }
  });
  const anchors: [number, number][] = [];
  let last = -1;
  after.forEach((message, index) => {
    if (skipAfter(index)) return;
    const candidate =
      byObject.get(message) ?? byObject.get(message.parts) ?? byObject.get(message.meta?.origin);
    if (candidate === undefined || candidate <= last) return;
    if (!sameMessage(before[candidate] as Message, message)) return;
    anchors.push([index, candidate]);
    last = candidate;
  });
  return anchors;
}

/** How alike two messages are, 0 when they cannot be the same message (different roles). */
function similarity(before: Message, after: Message): number {
  if (before.role !== after.role) return 0;
  let score = 1;
  if (before.id !== undefined && before.id === after.id) score += 8;
  const parts = new Set<Part>(before.parts);
  if (after.parts.some((part) => parts.has(part))) score += 8;
  const ids = toolIds(before);
  if (ids.size > 0 && [...toolIds(after)].some((id) => ids.has(id))) score += 4;
  return score;
}

function toolIds(message: Message): Set<string> {
  const out = new Set<string>();
  for (const part of message.parts) {
    if (part.type === 'tool-call') out.add(part.id);
    else if (part.type === 'tool-result') out.add(part.callId);
  }
  return out;
}

interface Segment {
  readonly beforeStart: number;
  readonly beforeEnd: number;
  readonly afterStart: number;
  readonly afterEnd: number;
}

function matchSegment(segment: Segment, score: (b: number, a: number) => number, sourceOf: number[]): void {
  const rows = segment.beforeEnd - segment.beforeStart;
  const cols = segment.afterEnd - segment.afterStart;
  if (rows <= 0 || cols <= 0) return;
  if ((rows + 1) * (cols + 1) > MAX_CELLS) {
    matchGreedy(segment, score, sourceOf);
    return;
  }
  // best[i][j]: the best total score of B[start+i..] against A[start+j..], filled from the end.
  const width = cols + 1;
  const best = new Float64Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      const s = score(segment.beforeStart + i, segment.afterStart + j);
      const match = s > 0 ? s + (best[(i + 1) * width + j + 1] ?? 0) : 0;
      best[i * width + j] = Math.max(best[(i + 1) * width + j] ?? 0, best[i * width + j + 1] ?? 0, match);
    }
  }
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    const here = best[i * width + j] ?? 0;
    if ((best[(i + 1) * width + j] ?? 0) === here) i++;
    else if ((best[i * width + j + 1] ?? 0) === here) j++;
    else {
      sourceOf[segment.afterStart + j] = segment.beforeStart + i;
      i++;
      j++;
    }
  }
}

function matchGreedy(segment: Segment, score: (b: number, a: number) => number, sourceOf: number[]): void {
  let next = segment.beforeStart;
  for (let a = segment.afterStart; a < segment.afterEnd; a++) {
    let chosen = -1;
    let top = 0;
    for (let b = next; b < Math.min(segment.beforeEnd, next + GREEDY_WINDOW); b++) {
      const s = score(b, a);
      if (s > top) {
        top = s;
        chosen = b;
      }
    }
    if (chosen === -1) continue;
    sourceOf[a] = chosen;
    next = chosen + 1;
  }
}
