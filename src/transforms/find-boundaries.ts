import type { Message } from '../model/message.js';
import { createRoughCounter } from '../tokens/rough-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { isCheckpointMessage } from './checkpoint-text.js';
import { findLatestUserRequest } from './find-latest-user-request.js';
import { walkTail } from './tail-cut.js';
import { alignBack, alignForward, turnEnd } from './tool-groups.js';

/**
 * How far the kept tail may reach back beyond the token walk, as a share of its budget, to take in the latest
 * request or the last visible reply; further back, they are folded around (request) or left to the checkpoint.
 */
const TAIL_REACH = 0.5;

/** Options of {@link findBoundaries}. */
export interface FindBoundariesOptions {
  /** Tokens the kept tail aims at (a single oversized message may take it to 1.5 ×). */
  readonly tailTokenBudget: number;
  /** @default createRoughCounter() */
  readonly counter?: TokenCounter;
  /**
   * Non-system messages kept verbatim at the start, on the first compaction only (Hermes #11996): once a
   * transcript has been compacted, or carries a checkpoint, the head is the system prompt alone.
   * @default 3
   */
  readonly protectFirstN?: number;
  /** Feeds the tail's message floor, `max(3, min(protectLastN, 8))`. @default 20 */
  readonly protectLastN?: number;
  /** Compactions already done in this conversation; any positive value turns `protectFirstN` off. @default 0 */
  readonly compactionCount?: number;
  /**
   * The fewest messages the tail keeps, instead of `max(3, min(protectLastN, 8))`: a compaction that must fit
   * a small window keeps less. @default derived from `protectLastN`
   */
  readonly minTailMessages?: number;
  /**
   * When the latest request is kept in the head, keep its immediate reply with it. Turned off when the
   * transcript must shrink harder. @default true
   */
  readonly keepRequestReply?: boolean;
  /** Reach the tail back to the last visible assistant reply (Hermes #29824). @default true */
  readonly keepLastReply?: boolean;
}

/** Why a boundary sits where it does, for reports. */
export type BoundaryReasonCode =
  | 'head-first-n'
  | 'head-decayed'
  | 'head-tool-results'
  | 'tail-budget'
  | 'tail-raw-budget'
  | 'tail-floor'
  | 'tail-tool-group'
  | 'request-in-head'
  | 'request-in-tail'
  | 'request-moved-tail'
  | 'request-moved-head'
  | 'request-kept-alone'
  | 'no-request'
  | 'last-assistant'
  | 'previous-checkpoint'
  | 'nothing-to-compact';

/** One reason, with a sentence for people. */
export interface BoundaryReason {
  readonly code: BoundaryReasonCode;
  readonly detail: string;
}

/**
 * Head, middle and tail of a transcript: `[0, headEnd)` is kept verbatim, `[headEnd, tailStart)` is what a
 * checkpoint replaces, `[tailStart, n)` is kept verbatim. `headEnd === tailStart` means nothing to compact.
 */
export interface FoundBoundaries {
  readonly headEnd: number;
  readonly tailStart: number;
  /** Index of the latest real user request, -1 when there is none; never inside the middle. */
  readonly latestUserRequest: number;
  /**
   * The latest request, when it sits inside `[headEnd, tailStart)` with long stretches on both sides: it is kept
   * verbatim after the checkpoint, and everything else of the middle (before and after it) is folded.
   */
  readonly keepRequestAt?: number;
  /** The newest earlier checkpoint inside the middle: update it instead of summarising it as a turn. */
  readonly previousCheckpointIndex?: number;
  /**
   * The newest checkpoint inside the head, when the head reaches past one (it then sits before the latest
   * user request, which the head kept): leave it in place and write the new checkpoint after the head.
   */
  readonly headCheckpointIndex?: number;
  readonly reasons: readonly BoundaryReason[];
}

/**
 * Chooses the head and tail of a compaction (Hermes b.2–b.4, improved). The system prompt(s) at the start are
 * always in the head, then `protectFirstN` messages on a first compaction, extended over tool results. The
 * tail comes from a token walk from the end ({@link walkTail}) and never starts among tool results. The latest
 * real user request is never left in the middle: the tail reaches back to it (Hermes #10896), or, when that
 * would compact less than keeping the request with its immediate reply in the head and compacting the steps
 * after it, the head takes it instead (this replaces Hermes #22523, which summarised the request away). The
 * last visible assistant reply is pulled into the tail (Hermes #29824).
 */
export function findBoundaries(
  messages: readonly Message[],
  options: FindBoundariesOptions,
): FoundBoundaries {
  const counter = options.counter ?? createRoughCounter();
  return findBoundariesPriced(messages, options, (index) => counter.countMessage(messages[index] as Message));
}

/**
 * {@link findBoundaries} with the tokens of the message at an index from `tokensAt` instead of a counter: the
 * compressor's layout prices each message as pruning leaves it, which depends on its position.
 */
export function findBoundariesPriced(
  messages: readonly Message[],
  options: Omit<FindBoundariesOptions, 'counter'>,
  tokensAt: (index: number) => number,
): FoundBoundaries {
  const reasons: BoundaryReason[] = [];
  const note = noteInto(reasons);
  const n = messages.length;
  let systemEnd = 0;
  while (systemEnd < n && messages[systemEnd]?.role === 'system') systemEnd++;
  // One scan finds every checkpoint, for the head's decay and for the newest ones of the head and middle.
  const checkpoints = checkpointIndices(messages);
  const compacted = (options.compactionCount ?? 0) > 0 || checkpoints.length > 0;
  const firstN = compacted ? 0 : (options.protectFirstN ?? 3);
  if (compacted && (options.protectFirstN ?? 3) > 0) {
    note('head-decayed', 'already compacted: only the system prompt is protected at the start');
  } else if (firstN > 0) note('head-first-n', `the first ${firstN} non-system messages are protected`);
  const plainHead = Math.min(n, systemEnd + firstN);
  let headEnd = alignForward(messages, plainHead);
  if (headEnd > plainHead) note('head-tool-results', `the head keeps the tool results up to ${headEnd}`);
  const latest = findLatestUserRequest(messages);
  if (headEnd >= n) {
    note('nothing-to-compact', 'the whole transcript is protected head');
    const inHead = newestCheckpoint(checkpoints, systemEnd, n);
    return {
      headEnd: n,
      tailStart: n,
      latestUserRequest: latest,
      ...(inHead === undefined ? {} : { headCheckpointIndex: inHead }),
      reasons,
    };
  }
  const walk = walkTail(
    messages,
    headEnd,
    options.tailTokenBudget,
    options.protectLastN ?? 20,
    tokensAt,
    options.minTailMessages,
  );
  note(walkReason(walk.rule), `the token walk puts the tail at ${walk.cut} (floor ${walk.minTail} messages)`);
  let cut = alignBack(messages, walk.cut);
  if (cut < walk.cut)
    note('tail-tool-group', `the tail starts at ${cut} to keep a tool call with its results`);
  const keepReply = options.keepRequestReply ?? true;
  const budget = options.tailTokenBudget;
  let keepRequestAt: number | undefined;
  ({ headEnd, cut, keepRequestAt } = anchorRequest(
    messages,
    { headEnd, cut, latest, tokensAt, keepReply, budget },
    note,
  ));
  const reply = lastAssistantReply(messages, headEnd);
  if (options.keepLastReply !== false && reply !== -1 && reply < cut) {
    // Only within the tail's slack: a reply dozens of silent steps back is what the checkpoint is for.
    if (withinTokens(reply, cut, tokensAt, budget * TAIL_REACH)) {
      cut = alignBack(messages, reply);
      note('last-assistant', `the tail reaches back to the last assistant reply (${reply})`);
    }
  }
  const tailStart = Math.max(cut, headEnd);
  if (tailStart === headEnd)
    note('nothing-to-compact', 'head and tail meet: nothing between them to compact');
  if (keepRequestAt !== undefined && (keepRequestAt < headEnd || keepRequestAt >= tailStart))
    keepRequestAt = undefined;
  const previous = newestCheckpoint(checkpoints, headEnd, tailStart);
  if (previous !== undefined)
    note('previous-checkpoint', `message ${previous} is an earlier checkpoint to update`);
  const inHead = newestCheckpoint(checkpoints, systemEnd, headEnd);
  return {
    headEnd,
    tailStart,
    latestUserRequest: latest,
    ...(keepRequestAt === undefined ? {} : { keepRequestAt }),
    ...(previous === undefined ? {} : { previousCheckpointIndex: previous }),
    ...(inHead === undefined ? {} : { headCheckpointIndex: inHead }),
    reasons,
  };
}

/**
 * Keeps the latest user request out of the middle. The tail reaches back to it when that adds at most half the
 * tail's budget. Otherwise a request with nothing before it in the middle
 * joins the head (with its immediate reply), and one with long stretches on both sides is kept alone: both
 * stretches are folded and the request stays verbatim after the checkpoint, instead of a hundred messages kept
 * verbatim around it.
 */
function anchorRequest(
  messages: readonly Message[],
  at: {
    headEnd: number;
    cut: number;
    latest: number;
    tokensAt: (index: number) => number;
    keepReply: boolean;
    budget: number;
  },
  note: (code: BoundaryReasonCode, detail: string) => void,
): { headEnd: number; cut: number; keepRequestAt?: number } {
  const { headEnd, cut, latest } = at;
  if (latest === -1) note('no-request', 'no user request to anchor');
  else if (latest < headEnd) note('request-in-head', `the latest user request (${latest}) is in the head`);
  else if (latest >= cut) note('request-in-tail', `the latest user request (${latest}) is in the tail`);
  else {
    const withRequestInHead = at.keepReply ? turnEnd(messages, latest) : latest + 1;
    if (withinTokens(latest, cut, at.tokensAt, at.budget * TAIL_REACH)) {
      note('request-moved-tail', `the tail reaches back to the latest user request (${latest})`);
      return { headEnd, cut: latest };
    }
    if (latest === headEnd) {
      note('request-moved-head', `the latest user request (${latest}) and its reply stay in the head`);
      return { headEnd: withRequestInHead, cut };
    }
    note(
      'request-kept-alone',
      `the latest user request (${latest}) stays; the stretches around it are folded`,
    );
    return { headEnd, cut, keepRequestAt: latest };
  }
  return { headEnd, cut };
}

/**
 * True when messages `[from, to)` take at most `limit` tokens. It stops counting once past the limit: counting
 * a message can mean digesting it first (see the compressor's layout).
 */
function withinTokens(from: number, to: number, tokensAt: (index: number) => number, limit: number): boolean {
  let total = 0;
  for (let index = from; index < to; index++) {
    total += tokensAt(index);
    if (total > limit) return false;
  }
  return true;
}

/** Adds a reason to `reasons`. */
function noteInto(reasons: BoundaryReason[]): (code: BoundaryReasonCode, detail: string) => void {
  return (code, detail) => {
    reasons.push({ code, detail });
  };
}

function walkReason(rule: 'budget' | 'raw-budget' | 'floor'): BoundaryReasonCode {
  switch (rule) {
    case 'budget':
      return 'tail-budget';
    case 'raw-budget':
      return 'tail-raw-budget';
    case 'floor':
      return 'tail-floor';
  }
}

/** The last assistant message at or after `from` with visible text, else the last assistant message. */
function lastAssistantReply(messages: readonly Message[], from: number): number {
  let fallback = -1;
  for (let index = messages.length - 1; index >= from; index--) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    if (message.parts.some((part) => part.type === 'text' && part.text.trim() !== '')) return index;
    if (fallback === -1) fallback = index;
  }
  return fallback;
}

/** Indices of the checkpoint messages, ascending. */
function checkpointIndices(messages: readonly Message[]): number[] {
  const found: number[] = [];
  for (let index = 0; index < messages.length; index++)
    if (isCheckpointMessage(messages[index] as Message)) found.push(index);
  return found;
}

/** The last of the ascending `checkpoints` in `[from, to)`. */
function newestCheckpoint(checkpoints: readonly number[], from: number, to: number): number | undefined {
  for (let at = checkpoints.length - 1; at >= 0; at--) {
    const index = checkpoints[at] as number;
    if (index < to) return index >= from ? index : undefined;
  }
  return undefined;
}
