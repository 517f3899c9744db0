import type { Message } from '../../model/message.js';
import { formatCount } from '../../transforms/text-facts.js';
import {
  type CompactionReport,
  NO_COMPRESSOR_DETAILS,
  type RuleCounts,
  type TokenFigures,
} from '../compaction-report.js';
import { buildProvenance, keptProvenance } from '../provenance.js';
import type { RulePreset } from './options.js';

/** Counts of a pass that changed nothing. */
export const NO_RULE_COUNTS: RuleCounts = {
  collapsedPairs: 0,
  truncatedOutputs: 0,
  droppedSystem: 0,
  mergedAssistant: 0,
  heldBack: 0,
  references: 0,
};

/** What {@link rulesReport} is built from. */
export interface RulesReportInput {
  readonly input: readonly Message[];
  readonly output: readonly Message[];
  readonly before: TokenFigures;
  readonly after: TokenFigures;
  readonly counts: RuleCounts;
  readonly thresholdTokens: number;
  readonly preset: RulePreset;
  /** True when the pass already ran with stricter settings than configured to fit the window. */
  readonly squeezed?: boolean;
  readonly reason?: string;
  readonly notes?: readonly string[];
  /** Per output message, the input indices it stands for; absent when the output is the input. */
  readonly sources?: readonly (readonly number[])[];
}

/**
 * The compaction report of a rules pass: token and message figures, per-rule counts, how many leading messages
 * are the input's own (byte-identical, so a provider's prefix cache survives), and, when the output is still
 * above the threshold, by how much and what to try next.
 */
export function rulesReport(details: RulesReportInput): CompactionReport {
  const { input, output, before, after } = details;
  const changed = output !== input;
  let unchangedPrefix = 0;
  while (unchangedPrefix < output.length && output[unchangedPrefix] === input[unchangedPrefix])
    unchangedPrefix++;
  const saved = before.rough - after.rough;
  const notes = [...(details.notes ?? [])];
  if (changed) {
    notes.push(
      `${formatCount(unchangedPrefix)} leading message${unchangedPrefix === 1 ? '' : 's'} left byte-identical`,
    );
  }
  const size = after.exact ?? after.rough;
  if (size > details.thresholdTokens) {
    const above = (100 * (size - details.thresholdTokens)) / details.thresholdTokens;
    const next =
      details.preset === 'strict' || details.squeezed === true
        ? 'the compressor engine can fold the middle of the conversation into a checkpoint'
        : 'the strict preset (preset: strict) protects fewer turns and truncates outputs harder';
    notes.push(
      `still ${above.toFixed(1)} % above the target of ${formatCount(details.thresholdTokens)} tokens (${formatCount(size)} after the rules); ${next}`,
    );
  }
  return {
    engine: 'rules',
    tokensBefore: before,
    tokensAfter: after,
    messagesBefore: input.length,
    messagesAfter: output.length,
    ...NO_COMPRESSOR_DETAILS,
    dropped: Math.max(0, input.length - output.length),
    errors: [],
    savings: { tokens: saved, percent: before.rough === 0 ? 0 : (100 * saved) / before.rough },
    madeProgress: changed && saved > 0,
    aborted: false,
    ...(details.reason === undefined ? {} : { reason: details.reason }),
    notes,
    unchangedPrefix,
    rules: details.counts,
    provenance:
      details.sources === undefined || !changed
        ? keptProvenance(input)
        : buildProvenance({
            input,
            output,
            sources: details.sources,
            removed: (index) =>
              input[index]?.role === 'tool'
                ? { status: 'collapsed', reason: 'result collapsed into a one-line record' }
                : { status: 'dropped', reason: 'not in the compacted transcript' },
          }),
  };
}
