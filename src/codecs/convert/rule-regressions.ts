import type { FormatName } from '../../model/format.js';
import type { Transcript } from '../../model/transcript.js';
import { isProviderFormat, type WireProblem, wireProblems } from '../provider-rules/index.js';
import { getCodec } from '../registry.js';
import { canonicalTranscript } from './canonical.js';

/** The provider-rule problems of a transcript in `format`'s canonical shape (empty for non-provider formats). */
export function canonicalProblems(format: FormatName, transcript: Transcript): WireProblem[] {
  // Only provider formats have rules: encoding anything else (a Claude Code session synthesizes every record and
  // hashes the whole transcript for its session id) would be thrown away.
  if (transcript.messages.length === 0 || !isProviderFormat(format)) return [];
  const wire = getCodec(format).encode(canonicalTranscript(transcript));
  return wireProblems(format, wire, { trailingCalls: false });
}

/**
 * Problems a rewrite of a transcript brought in: those of `after` beyond what `before` already had, counted by
 * code (a rewrite cannot be blamed for rule breaks it inherited). Both are checked in the format's canonical shape,
 * so dataset dialects are judged by what their conversation would send.
 */
export function introducedProblems(format: FormatName, before: Transcript, after: Transcript): WireProblem[] {
  const found = canonicalProblems(format, after);
  // A rewrite with no problem brought none in: the input (often the far larger side) need not be encoded.
  if (found.length === 0) return found;
  const known = new Map<string, number>();
  for (const problem of canonicalProblems(format, before))
    known.set(problem.code, (known.get(problem.code) ?? 0) + 1);
  return found.filter((problem) => {
    const left = known.get(problem.code) ?? 0;
    if (left === 0) return true;
    known.set(problem.code, left - 1);
    return false;
  });
}
