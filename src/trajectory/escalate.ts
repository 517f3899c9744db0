import type { Message } from '../model/message.js';
import { digestToolResults } from '../transforms/digest-tool-results.js';
import { type Assembled, assemble, clipToFit } from './assemble.js';
import { type CompressionPlan, planCompression, type TurnSpan } from './plan-compression.js';
import { type RegionSummary, type RegionSummaryContext, summarizeRegion } from './summarize-region.js';
import { summaryMessage, summaryTurnText } from './summary-turn.js';
import type { ResolvedTrajectorySettings } from './trajectory-settings.js';

/** Smallest summary budget worth asking for, in tokens. */
const MIN_SUMMARY_TOKENS = 32;

/** The outcome of the escalation. */
export interface Escalated {
  readonly assembled: Assembled;
  readonly summary: RegionSummary;
  readonly strategy: 'digest-then-summarize';
  readonly digested: number;
  readonly clipped: boolean;
  /** The first pass's summary covered the same region and was used again (no new summarizer call). */
  readonly reused: boolean;
  readonly note?: string;
}

/**
 * Every tool output except those of the turns in `keep` replaced by its one-line digest (tool, target, outcome,
 * paths, URLs and error lines kept), and how many were replaced.
 */
function digestExcept(
  messages: readonly Message[],
  keep: ReadonlySet<number>,
): { messages: readonly Message[]; digested: number } {
  const result = digestToolResults(messages, { before: messages.length });
  if (result.digested === 0) return { messages, digested: 0 };
  const out = [...result.messages];
  for (const index of keep) out[index] = messages[index] as Message;
  let digested = 0;
  out.forEach((message, index) => {
    const original = messages[index] as Message;
    if (message === original) return;
    message.parts.forEach((part, partIndex) => {
      if (part.type === 'tool-result' && part !== original.parts[partIndex]) digested++;
    });
  });
  return { messages: out, digested };
}

/** One rung of the escalation ladder: which turns keep their tool outputs, and which first turns are protected. */
interface Rung {
  readonly keep: ReadonlySet<number>;
  readonly settings: ResolvedTrajectorySettings;
  readonly relaxed: boolean;
}

/**
 * The second strategy, for trajectories one pass cannot bring under the target. It climbs a ladder and stops at
 * the first rung that leaves room for a summary: (1) digest the tool outputs of the unprotected turns; (2) digest
 * those of the protected turns too; (3) also stop protecting the first assistant and tool turns, so the region
 * can start right after the first user turn. Anchor turns, the system prompt, the first user turn and the last
 * N turns stay verbatim on every rung. The cut is planned again on the smaller trajectory, the original text of
 * the new region is summarized with the room actually left, and the summary is clipped when it still overflows.
 * The first pass's summary is reused when the region did not move. `undefined` when no region can be cut at all.
 */
export async function escalate(
  messages: readonly Message[],
  anchors: readonly number[],
  previous: RegionSummary | undefined,
  context: RegionSummaryContext,
): Promise<Escalated | undefined> {
  const { settings, counter } = context;
  const target = settings.targetMaxTokens;
  const emptyTurn = counter.countMessage(
    summaryMessage(summaryTurnText('', 'model', settings.summaryStyle), 'model', 0),
  );
  const originalTokens = messages.map((message) => counter.countMessage(message));
  const protectedList = planCompression(messages, originalTokens, settings, anchors).protectedTurns;
  const relaxedSettings: ResolvedTrajectorySettings = {
    ...settings,
    protectFirst: { ...settings.protectFirst, assistant: false, tool: false },
  };
  const rungs: Rung[] = [
    { keep: new Set(protectedList), settings, relaxed: false },
    { keep: new Set(anchors), settings, relaxed: false },
    { keep: new Set(anchors), settings: relaxedSettings, relaxed: true },
  ];
  let chosen: { digested: ReturnType<typeof digestExcept>; plan: CompressionPlan; rung: Rung } | undefined;
  for (const rung of rungs) {
    const digested = digestExcept(messages, rung.keep);
    const tokens = digested.messages.map((message) => counter.countMessage(message));
    const plan = planCompression(digested.messages, tokens, rung.settings, anchors);
    if (plan.region === undefined) continue;
    chosen = { digested, plan, rung };
    if (target - plan.keptTokens - emptyTurn >= MIN_SUMMARY_TOKENS) break;
  }
  if (chosen === undefined) return undefined;
  const { digested, plan, rung } = chosen;
  const region = plan.region as TurnSpan;
  const room = target - plan.keptTokens - emptyTurn;
  const budget = Math.max(MIN_SUMMARY_TOKENS, Math.min(settings.summaryTargetTokens, room));
  const reused =
    previous !== undefined && previous.region.start === region.start && previous.region.end === region.end;
  const summary = reused ? previous : await summarizeRegion(messages, region, budget, context);
  let assembled = assemble(digested.messages, region, summary, settings, counter);
  let clipped = false;
  const notes: string[] = [];
  if (rung.relaxed)
    notes.push('the first assistant and tool turns were folded into the summary to make room');
  if (assembled.tokens > target) {
    const fits = (body: string): boolean =>
      assembled.keptTokens +
        counter.countMessage(
          summaryMessage(summaryTurnText(body, summary.source, settings.summaryStyle), summary.source, 0),
        ) <=
      target;
    const body = clipToFit(summary.body, fits);
    if (body !== '') {
      assembled = assemble(digested.messages, region, { body, source: summary.source }, settings, counter);
      clipped = true;
    } else {
      notes.push(
        'the system prompt, the first user turn, the anchors and the last turns alone exceed the target, even with tool outputs digested',
      );
    }
  }
  return {
    assembled,
    summary,
    strategy: 'digest-then-summarize',
    digested: digested.digested,
    clipped,
    reused,
    ...(notes.length === 0 ? {} : { note: notes.join('; ') }),
  };
}
