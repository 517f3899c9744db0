import type { Message } from '../model/message.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { TurnSpan } from './plan-compression.js';
import type { RegionSummary } from './summarize-region.js';
import { summaryMessage, summaryTurnText, withNotice } from './summary-turn.js';
import type { ResolvedTrajectorySettings } from './trajectory-settings.js';

/** A compressed trajectory before its metrics: the turns and their token total. */
export interface Assembled {
  readonly messages: readonly Message[];
  readonly tokens: number;
  /** Tokens of the summary turn alone. */
  readonly summaryTokens: number;
  /** Tokens of every turn but the summary. */
  readonly keptTokens: number;
}

/**
 * Head turns, one summary turn, then every turn after the region, from `kept` (the input, or its digested copy
 * when escalating). The first system turn of the head gets the notice when one is configured. Every turn is
 * counted once: kept turns hit the counter's cache, only the summary and a noticed system turn are new.
 */
export function assemble(
  kept: readonly Message[],
  region: TurnSpan,
  summary: Pick<RegionSummary, 'body' | 'source'>,
  settings: ResolvedTrajectorySettings,
  counter: TokenCounter,
): Assembled {
  const head = kept.slice(0, region.start);
  const notice = settings.summaryNotice;
  if (notice !== undefined) {
    const system = head.findIndex((message) => message.role === 'system');
    if (system !== -1) head[system] = withNotice(head[system] as Message, notice);
  }
  const text = summaryTurnText(summary.body, summary.source, settings.summaryStyle);
  const turn = summaryMessage(text, summary.source, region.end - region.start);
  const messages = [...head, turn, ...kept.slice(region.end)];
  let keptTokens = 0;
  for (const message of messages) if (message !== turn) keptTokens += counter.countMessage(message);
  const summaryTokens = counter.countMessage(turn);
  return { messages, tokens: keptTokens + summaryTokens, summaryTokens, keptTokens };
}

const CLIP_NOTE = '\n[summary clipped to fit the token budget]';

/**
 * The longest head of `body` (cut at a line or word when one is near, with a note saying it was clipped) for
 * which `fits` holds; the empty body when none does. Binary search: O(log n) token counts.
 */
export function clipToFit(body: string, fits: (body: string) => boolean): string {
  if (fits(body)) return body;
  const clipped = (length: number): string => {
    const head = body.slice(0, length);
    const breakAt = Math.max(head.lastIndexOf('\n'), head.lastIndexOf(' '));
    return `${(breakAt > length * 0.8 ? head.slice(0, breakAt) : head).trimEnd()}${CLIP_NOTE}`;
  };
  let low = 0;
  let high = body.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(clipped(middle))) low = middle;
    else high = middle - 1;
  }
  return low === 0 ? '' : clipped(low);
}
