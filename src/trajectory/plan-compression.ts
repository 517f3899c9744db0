import type { Message } from '../model/message.js';
import type { ResolvedTrajectorySettings } from './trajectory-settings.js';

/** A span of turns, `end` exclusive. */
export interface TurnSpan {
  readonly start: number;
  readonly end: number;
}

/** Where a trajectory would be cut, decided from token counts alone (no summarizer involved). */
export interface CompressionPlan {
  readonly total: number;
  /** Turns kept verbatim whatever happens: protected first turns, the last N turns, anchors. Sorted. */
  readonly protectedTurns: readonly number[];
  /** The compressible middle between the protected head and tail; absent when there is none. */
  readonly window?: TurnSpan;
  /** The turns to replace by one summary turn; absent when no clean cut exists. */
  readonly region?: TurnSpan;
  /** Tokens the region must free: `total − target + summaryTarget`. */
  readonly tokensToSave: number;
  /** The region frees at least `tokensToSave` (false when even the whole window is not enough). */
  readonly needReached: boolean;
  /** Tokens of the turns kept around the region. */
  readonly keptTokens: number;
}

function isTool(messages: readonly Message[], index: number): boolean {
  return messages[index]?.role === 'tool';
}

/** A cut before `index` keeps every tool call with its results: `index` is not a tool turn (or is the end). */
function isClean(messages: readonly Message[], index: number): boolean {
  return index >= messages.length || !isTool(messages, index);
}

/**
 * Moves a boundary onto a clean cut within `[low, high]`: forward past tool turns while below `high`, and when
 * that ends on a tool turn, backward from where it started (not below `low`). `undefined` when neither works.
 */
export function snapBoundary(
  messages: readonly Message[],
  index: number,
  low: number,
  high: number,
): number | undefined {
  let at = index;
  while (at < high && isTool(messages, at)) at++;
  if (isClean(messages, at)) return at;
  at = index;
  while (at > low && isTool(messages, at)) at--;
  return isClean(messages, at) ? at : undefined;
}

/**
 * The turns that stay verbatim: the first system, user, assistant and tool turns (as enabled), the last
 * `protectLastN` turns and the anchors. Sorted, no repeats.
 */
export function protectedTurns(
  messages: readonly Message[],
  settings: ResolvedTrajectorySettings,
  anchors: readonly number[] = [],
): number[] {
  const found = new Set<number>(anchors);
  const wanted = settings.protectFirst;
  const seen = new Set<Message['role']>();
  messages.forEach((message, index) => {
    if (seen.has(message.role)) return;
    seen.add(message.role);
    if (wanted[message.role]) found.add(index);
  });
  for (let index = Math.max(0, messages.length - settings.protectLastN); index < messages.length; index++)
    found.add(index);
  return [...found].sort((left, right) => left - right);
}

/**
 * The compressible window, Hermes' way: protected turns in the first half form the head, the others the tail;
 * the window runs from after the last head turn to the first tail turn, its start moved off tool turns.
 */
export function compressibleWindow(
  messages: readonly Message[],
  protectedList: readonly number[],
): TurnSpan | undefined {
  const half = Math.floor(messages.length / 2);
  let start = 0;
  let end = messages.length;
  for (const index of protectedList) {
    if (index < half) start = Math.max(start, index + 1);
    else end = Math.min(end, index);
  }
  while (start < end && isTool(messages, start)) start++;
  return start < end ? { start, end } : undefined;
}

/**
 * Decides the cut: turns are taken from the start of the window until they free `total − target +
 * summaryTarget` tokens (the whole window when they never do), and the end is moved onto a clean boundary so a
 * tool call never loses its results. Pure and cheap: it runs before any summarizer is asked.
 */
export function planCompression(
  messages: readonly Message[],
  tokens: readonly number[],
  settings: ResolvedTrajectorySettings,
  anchors: readonly number[] = [],
): CompressionPlan {
  const total = sum(tokens, 0, tokens.length);
  const protectedList = protectedTurns(messages, settings, anchors);
  const tokensToSave = total - settings.targetMaxTokens + settings.summaryTargetTokens;
  const base = { total, protectedTurns: protectedList, tokensToSave };
  const window = compressibleWindow(messages, protectedList);
  if (window === undefined) return { ...base, needReached: false, keptTokens: total };
  let cut = window.end;
  let freed = 0;
  for (let index = window.start; index < window.end; index++) {
    freed += tokens[index] ?? 0;
    if (freed >= tokensToSave) {
      cut = index + 1;
      break;
    }
  }
  const end = snapBoundary(messages, cut, window.start, window.end);
  if (end === undefined || end <= window.start)
    return { ...base, window, needReached: false, keptTokens: total };
  const region = { start: window.start, end };
  const regionTokens = sum(tokens, region.start, region.end);
  return {
    ...base,
    window,
    region,
    needReached: regionTokens >= tokensToSave,
    keptTokens: total - regionTokens,
  };
}

function sum(values: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let index = from; index < to; index++) total += values[index] ?? 0;
  return total;
}
