import type { Draft } from './build-draft.js';
import { FULL_KNOBS, type Knobs, type RenderedBody, renderDraft } from './render-draft.js';

/** A body fitted to a budget. */
export interface FittedBody extends RenderedBody {
  readonly tokens: number;
  /** True when even the smallest rendering is over the target. */
  readonly overBudget: boolean;
}

// Each step keeps less of the content that matters least; artifacts are touched only by the last search.
const STEPS: readonly Partial<Knobs>[] = [
  {
    decisions: 5,
    constraints: 8,
    inProgress: 3,
    pending: 2,
    resolved: 4,
    remaining: 6,
    previousContext: 10,
    goalChars: 240,
  },
  { shortOutcomes: true },
  {
    decisions: 2,
    constraints: 4,
    inProgress: 2,
    pending: 1,
    resolved: 2,
    remaining: 3,
    previousContext: 4,
    taskChars: 1200,
  },
  {
    decisions: 0,
    constraints: 2,
    inProgress: 1,
    pending: 0,
    resolved: 0,
    remaining: 1,
    previousContext: 0,
    taskChars: 500,
    goalChars: 120,
  },
];

/** The largest value in [low, high] for which `fits` holds, assuming it holds for all smaller values. */
function largestFitting(low: number, high: number, fits: (value: number) => boolean): number | undefined {
  if (!fits(low)) return undefined;
  let lo = low;
  let hi = high;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The rendering that keeps every artifact and gives up everything else it can. */
const LEANEST: Knobs = Object.assign({}, FULL_KNOBS, ...STEPS, { previousActions: 0, actions: 0 });

/**
 * Renders the draft as fully as `targetTokens` allows. Prose goes first (decisions, constraints, output
 * digests, the copy of a long request), then whole action lines (oldest first; their artifacts move to the
 * lists), and only when the lists alone exceed the budget are artifacts left out, least valuable first (paths
 * only mentioned in output before files that were read, before commands and errors, before edited files).
 * `ceilingTokens` (a share of the turns' own size) lowers the target so that a checkpoint does not outgrow
 * what it replaces, but never below what keeping every artifact takes.
 */
export function fitDraft(
  draft: Draft,
  countText: (text: string) => number,
  targetTokens: number,
  ceilingTokens = Number.POSITIVE_INFINITY,
): FittedBody {
  let target = targetTokens;
  if (ceilingTokens < targetTokens) {
    const leanest = countText(renderDraft(draft, LEANEST).text);
    target = Math.min(targetTokens, Math.max(Math.floor(ceilingTokens), leanest));
  }
  const measure = (knobs: Knobs): FittedBody => {
    const rendered = renderDraft(draft, knobs);
    const tokens = countText(rendered.text);
    return { ...rendered, tokens, overBudget: tokens > target };
  };
  const body = fitTo(draft, measure);
  return { ...body, overBudget: body.tokens > targetTokens };
}

function fitTo(draft: Draft, measure: (knobs: Knobs) => FittedBody): FittedBody {
  let knobs = FULL_KNOBS;
  let body = measure(knobs);
  if (!body.overBudget) return body;
  for (const step of STEPS) {
    knobs = { ...knobs, ...step };
    body = measure(knobs);
    if (!body.overBudget) return body;
  }
  const fitsWith = (patch: Partial<Knobs>) => !measure({ ...knobs, ...patch }).overBudget;
  const previous = largestFitting(0, draft.previousActions.length, (count) =>
    fitsWith({ previousActions: count }),
  );
  if (previous !== undefined) return measure({ ...knobs, previousActions: previous });
  knobs = { ...knobs, previousActions: 0 };
  const actions = largestFitting(0, draft.actions.length, (count) => fitsWith({ actions: count }));
  if (actions !== undefined) return measure({ ...knobs, actions });
  knobs = { ...knobs, actions: 0 };
  const size = measure(knobs).ledgerSize;
  // Leaving out more entries never makes the text longer, so the smallest fitting drop is found by bisection.
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fitsWith({ ledgerDrop: mid })) hi = mid;
    else lo = mid + 1;
  }
  return measure({ ...knobs, ledgerDrop: lo });
}
