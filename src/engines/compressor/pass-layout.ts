import type { Message } from '../../model/message.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { findBoundariesPriced } from '../../transforms/find-boundaries.js';
import { findLatestUserRequest } from '../../transforms/find-latest-user-request.js';
import { type PrunePlan, type PruneReport, planPruning } from '../../transforms/prune-tool-outputs.js';
import type { ResolvedCompressorSettings } from './options.js';

/**
 * How hard a pass squeezes. Level 0 is the normal pass; each further level is tried only when the result would
 * not fit the context window: a smaller kept tail, old output pruned up to the last few messages, the latest
 * request kept without its reply, and finally only the last step kept whole.
 */
export interface SqueezeLevel {
  readonly level: number;
  /** Share of the normal tail budget kept. */
  readonly tailShare: number;
  /** Messages at the end that pruning never touches (`undefined`: the settings'). */
  readonly protectLastN: number | undefined;
  /** Fewest messages the tail keeps (`undefined`: derived from the settings). */
  readonly minTailMessages: number | undefined;
  readonly keepReplies: boolean;
}

/** The levels a pass tries in order. */
export const SQUEEZE_LEVELS: readonly SqueezeLevel[] = [
  { level: 0, tailShare: 1, protectLastN: undefined, minTailMessages: undefined, keepReplies: true },
  { level: 1, tailShare: 0.5, protectLastN: 6, minTailMessages: 3, keepReplies: true },
  { level: 2, tailShare: 0.2, protectLastN: 2, minTailMessages: 2, keepReplies: false },
  { level: 3, tailShare: 0, protectLastN: 1, minTailMessages: 1, keepReplies: false },
];

/** A transcript cut into head, middle and tail after pruning. */
export interface PassLayout {
  readonly level: number;
  /**
   * The transcript as the pass keeps it (same length and order as the input): the head, the tail and a kept
   * request pruned; the middle, which is folded into the checkpoint from the input, only deduplicated and
   * image-stripped (its digests would be thrown away unread).
   */
  readonly working: readonly Message[];
  /** What pruning did to the messages the pass keeps. */
  readonly pruning: PruneReport;
  /** The whole transcript pruned, the middle too, for a pass that keeps everything. */
  whole(): { readonly working: readonly Message[]; readonly pruning: PruneReport };
  readonly headEnd: number;
  readonly tailStart: number;
  /** Index of a checkpoint inside the head, which the pass leaves in place. */
  readonly headCheckpointIndex: number | undefined;
  /** Tokens of the head and tail as they will be kept. */
  readonly keptTokens: number;
  /**
   * The latest request at this index is kept alone after the checkpoint and everything else between head and
   * tail is folded, the steps after it included (see `findBoundaries`, and the last resort
   * {@link layOutAroundRequest}).
   */
  readonly keepRequestAt?: number;
}

/** What laying out a pass needs besides the messages. */
export interface LayoutInput {
  readonly settings: ResolvedCompressorSettings;
  readonly thresholdTokens: number;
  readonly counter: TokenCounter;
  readonly compactionCount: number;
}

/** Prunes and partitions the transcript at one squeeze level. */
export function layOut(messages: readonly Message[], input: LayoutInput, squeeze: SqueezeLevel): PassLayout {
  const { settings, counter } = input;
  const tailTokenBudget = Math.floor(input.thresholdTokens * settings.tailRatio * squeeze.tailShare);
  const protectLastN = squeeze.protectLastN ?? settings.protectLastN;
  const plan = planPruning(messages, {
    counter,
    protectLastN,
    protectTailTokens: tailTokenBudget,
    dedupeKeep: settings.dedupeKeep,
  });
  // The boundaries read the messages' roles, tool structure and user text, which digests and shrinking leave as
  // they are, and their sizes, which they change: so they get the messages before digests, each priced as
  // pruning leaves it, its digests made only when it is priced.
  const bounds = findBoundariesPriced(
    plan.base,
    {
      protectFirstN: input.compactionCount === 0 && squeeze.level === 0 ? settings.protectFirstN : 0,
      protectLastN,
      tailTokenBudget,
      compactionCount: input.compactionCount,
      ...(squeeze.minTailMessages === undefined ? {} : { minTailMessages: squeeze.minTailMessages }),
      keepRequestReply: squeeze.keepReplies,
      keepLastReply: squeeze.keepReplies,
    },
    (index) => counter.countMessage(plan.messageAt(index)),
  );
  return {
    level: squeeze.level,
    ...keptPart(
      plan,
      counter,
      (index) => index < bounds.headEnd || index >= bounds.tailStart || index === bounds.keepRequestAt,
    ),
    headEnd: bounds.headEnd,
    tailStart: bounds.tailStart,
    headCheckpointIndex: bounds.headCheckpointIndex,
    ...(bounds.keepRequestAt === undefined ? {} : { keepRequestAt: bounds.keepRequestAt }),
  };
}

/**
 * The last resort when no level fits: keep the system prompt(s) and the latest request, and fold everything
 * else into the checkpoint, the steps taken after the request included (the checkpoint then sits before the
 * request, which stays the last message). Undefined when there is no request or nothing would be folded.
 */
export function layOutAroundRequest(
  messages: readonly Message[],
  input: LayoutInput,
): PassLayout | undefined {
  const latest = findLatestUserRequest(messages);
  if (latest === -1) return undefined;
  const plan = planPruning(messages, {
    counter: input.counter,
    protectLastN: 0,
    protectTailTokens: 0,
    dedupeKeep: input.settings.dedupeKeep,
  });
  let headEnd = 0;
  while (headEnd < plan.base.length && plan.base[headEnd]?.role === 'system') headEnd++;
  if (plan.base.length - headEnd <= 1) return undefined;
  return {
    level: SQUEEZE_LEVELS.length,
    ...keptPart(plan, input.counter, (index) => index < headEnd || index === latest),
    headEnd,
    tailStart: plan.base.length,
    headCheckpointIndex: undefined,
    keepRequestAt: latest,
  };
}

/** The working transcript, pruning report and kept tokens of a layout keeping the messages `kept` accepts. */
function keptPart(
  plan: PrunePlan,
  counter: TokenCounter,
  kept: (index: number) => boolean,
): Pick<PassLayout, 'working' | 'pruning' | 'whole' | 'keptTokens'> {
  const indices: number[] = [];
  let keptTokens = 0;
  const working = plan.base.map((message, index) => {
    if (!kept(index)) return message;
    indices.push(index);
    const pruned = plan.messageAt(index);
    keptTokens += counter.countMessage(pruned);
    return pruned;
  });
  return {
    working,
    pruning: plan.reportFor(indices),
    keptTokens,
    whole() {
      const whole = plan.whole();
      return { working: whole.messages, pruning: whole.report };
    },
  };
}
