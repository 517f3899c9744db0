import { CondenseError } from '../errors/condense-error.js';
import { formatNumber } from '../transforms/text-facts.js';
import type { CompactionResult } from './context-engine.js';

/** What the budget could not make room for. */
export interface OverflowDetails {
  /** Tokens the best compaction still takes. */
  readonly tokens: number;
  /** The window it had to fit (context length minus the output reservation). */
  readonly limit: number;
  /** Tokens of what no engine may remove: system prompt(s) and the latest request, kept verbatim. */
  readonly irreducible: number;
  /** The smallest transcript the engine could make, for callers that want to inspect or send it anyway. */
  readonly best: CompactionResult;
}

/**
 * A compaction that cannot fit the context window, raised instead of returning an over-budget transcript
 * (`BUDGET_UNREACHABLE`). `details.best` holds the smallest result the engine could make.
 */
export class ContextOverflowError extends CondenseError {
  readonly details: OverflowDetails;

  constructor(details: OverflowDetails) {
    super({
      code: 'BUDGET_UNREACHABLE',
      message: `the transcript cannot be brought inside the ${formatNumber(details.limit)}-token window: the smallest compaction still takes ${formatNumber(details.tokens)} tokens, ${formatNumber(details.irreducible)} of them the system prompt and the latest request, which are always kept verbatim`,
      hint: overflowHint(details.best.report.engine),
    });
    this.details = details;
  }
}

/**
 * What to try next. The rules engine only prunes and truncates, so on a long conversation the way out is usually
 * the compressor, which folds the middle into a checkpoint.
 */
function overflowHint(engine: string): string {
  const fold =
    engine === 'rules'
      ? 'use the compressor engine (it folds the middle of the conversation into a checkpoint), '
      : '';
  return `${fold}give a larger context length, or shorten the system prompt or the latest request`;
}

/** True for a {@link ContextOverflowError}, even one from another copy of the package. */
export function isContextOverflow(error: unknown): error is ContextOverflowError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'BUDGET_UNREACHABLE' &&
    'details' in error
  );
}
