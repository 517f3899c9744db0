import { formatNumber } from '../transforms/text-facts.js';
import type { CompactionReport } from './compaction-report.js';

/** What a user sees after a manual compaction. */
export interface CompactionFeedback {
  readonly noop: boolean;
  readonly aborted: boolean;
  readonly fallbackUsed: boolean;
  readonly headline: string;
  readonly tokenLine: string;
  readonly note?: string;
}

/**
 * Turns a compaction report into the three lines a user reads after `/compress` or `condense compact`: a
 * headline, the request size before and after, and a note when something needs explaining (a failed summary,
 * or fewer messages but more tokens), followed by every note of the engine (what it left out, how far above the
 * target it stayed).
 */
export function describeCompaction(report: CompactionReport): CompactionFeedback {
  const before = report.messagesBefore;
  const after = report.messagesAfter;
  const noop = !report.aborted && report.dropped === 0 && report.savings.tokens === 0 && before === after;
  const fallbackUsed = report.summary.source === 'fallback-marker';
  const extractiveAfterFailure = report.summary.source === 'extractive' && report.errors.length > 0;
  const headline = report.aborted
    ? `Compaction aborted: ${before} messages kept unchanged`
    : noop
      ? `Nothing to compact: ${before} messages`
      : fallbackUsed
        ? `Compacted with a fallback marker: ${before} → ${after} messages`
        : `Compacted: ${before} → ${after} messages`;
  const tokensBefore = formatTokens(report.tokensBefore.exact ?? report.tokensBefore.rough);
  const tokensAfter = formatTokens(report.tokensAfter.exact ?? report.tokensAfter.rough);
  const unit = report.tokensBefore.exact === undefined ? '~' : '';
  const tokenLine =
    noop || report.aborted
      ? `Request size: ${unit}${tokensBefore} tokens (unchanged)`
      : `Request size: ${unit}${tokensBefore} → ${unit}${tokensAfter} tokens (${report.savings.percent >= 0 ? '-' : '+'}${Math.abs(report.savings.percent).toFixed(1)} %)`;
  const reason = report.errors.length > 0 ? ` Reason: ${report.errors[report.errors.length - 1]}` : '';
  let first: string | undefined;
  if (report.aborted) first = `The summary could not be made, so no messages were removed.${reason}`;
  else if (fallbackUsed)
    first = `No summary could be made; ${report.dropped} message(s) were replaced by a marker.${reason}`;
  else if (extractiveAfterFailure)
    first = `The model summary failed; the checkpoint was built from the transcript itself.${reason}`;
  else if (after < before && report.savings.tokens < 0)
    first = 'Fewer messages can still mean more tokens: the checkpoint is denser than the turns it replaced.';
  // The engine's notes follow whatever comes first: they say what was left out, which no headline replaces.
  const engineNotes = report.notes.length === 0 ? undefined : report.notes.join('; ');
  const note =
    first === undefined ? engineNotes : engineNotes === undefined ? first : `${first} Also: ${engineNotes}`;
  return {
    noop,
    aborted: report.aborted,
    fallbackUsed,
    headline,
    tokenLine,
    ...(note === undefined ? {} : { note }),
  };
}

function formatTokens(value: number): string {
  return formatNumber(Math.round(value));
}
