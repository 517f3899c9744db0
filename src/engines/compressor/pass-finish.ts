import type { Message } from '../../model/message.js';
import type { Transcript } from '../../model/transcript.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import type { CompactionReport, PruningReport, TokenFigures } from '../compaction-report.js';
import { buildProvenance, keptProvenance, type ProvenanceFacts } from '../provenance.js';

/** A pass's output, plus what the engine must remember. */
export interface CompactPassResult {
  readonly transcript: Transcript;
  readonly report: CompactionReport;
  /** The checkpoint body to update next time (unchanged when the pass wrote none). */
  readonly summaryBody: string | undefined;
}

/** The counters a report is measured with. */
export interface Counters {
  readonly counter: TokenCounter;
  readonly exactCounter: TokenCounter | undefined;
}

export const NO_PRUNING: PruningReport = {
  deduplicated: 0,
  digested: 0,
  argumentsShrunk: 0,
  imagesStripped: 0,
};

/** Rough (and, when configured, exact) tokens of some messages. */
export function countAll(messages: readonly Message[], counters: Counters): TokenFigures {
  const rough = messages.reduce((sum, message) => sum + counters.counter.countMessage(message), 0);
  const exact = counters.exactCounter;
  if (exact === undefined) return { rough };
  return { rough, exact: messages.reduce((sum, message) => sum + exact.countMessage(message), 0) };
}

/** What a finished pass reports besides its output. */
export interface FinishDetails {
  readonly counters: Counters;
  readonly previousSummary: string | undefined;
  readonly before: TokenFigures;
  readonly pruning: PruningReport;
  readonly bounds?: { headEnd: number; tailStart: number };
  readonly dropped?: number;
  readonly errors?: readonly string[];
  readonly aborted?: boolean;
  readonly reason?: string;
  readonly notes?: readonly string[];
  readonly summary?: CompactionReport['summary'];
  readonly summaryBody?: string | undefined;
  /** Where each message of the candidate came from (default: message `i` is input message `i`). */
  readonly sources?: Pick<ProvenanceFacts, 'sources' | 'removed'>;
}

/**
 * The report of a pass. A candidate that is not smaller than the input is discarded (the input comes back, and
 * a note says why): a compaction never makes a transcript bigger.
 */
export function finishPass(
  original: Transcript,
  candidate: Transcript,
  details: FinishDetails,
): CompactPassResult {
  const { before, counters } = details;
  let output = candidate;
  let after = countAll(candidate.messages, counters);
  const notes = [...(details.notes ?? [])];
  let summary = details.summary ?? { source: 'none' as const, calls: 0, tokens: 0, updatedPrevious: false };
  let dropped = details.dropped ?? 0;
  let summaryBody = details.summaryBody ?? details.previousSummary;
  if (candidate !== original && after.rough >= before.rough) {
    notes.push('compaction would not have made the transcript smaller, so it was left unchanged');
    output = original;
    after = before;
    summary = { source: 'none', calls: summary.calls, tokens: 0, updatedPrevious: false };
    dropped = 0;
    summaryBody = details.previousSummary;
  }
  const saved = before.rough - after.rough;
  const exactCounter = counters.exactCounter?.name;
  const reason =
    details.reason ??
    (output === original && notes.length > 0 ? (notes[notes.length - 1] as string) : undefined);
  const report: CompactionReport = {
    engine: 'compressor',
    tokensBefore: named(before, exactCounter),
    tokensAfter: named(after, exactCounter),
    messagesBefore: original.messages.length,
    messagesAfter: output.messages.length,
    ...(details.bounds === undefined || output === original ? {} : { boundaries: details.bounds }),
    pruning: output === original ? NO_PRUNING : details.pruning,
    summary,
    dropped,
    errors: details.errors ?? [],
    savings: { tokens: saved, percent: before.rough === 0 ? 0 : (100 * saved) / before.rough },
    madeProgress: output !== original && saved > 0,
    aborted: details.aborted ?? false,
    ...(reason === undefined ? {} : { reason }),
    notes,
    provenance:
      output === original
        ? keptProvenance(original.messages)
        : buildProvenance({
            input: original.messages,
            output: output.messages,
            sources: details.sources?.sources ?? output.messages.map((_, index) => [index]),
            removed:
              details.sources?.removed ??
              (() => ({ status: 'dropped', reason: 'not in the compacted transcript' })),
            boundaries: details.bounds,
          }),
  };
  return { transcript: output, report, summaryBody };
}

/** The figures with the exact counter's name when there is one (a module function: tsx names closures per call). */
function named(figures: TokenFigures, exactCounter: string | undefined): TokenFigures {
  return exactCounter === undefined ? figures : { ...figures, counter: exactCounter };
}
