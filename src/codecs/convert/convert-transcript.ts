import type { FormatName } from '../../model/format.js';
import type { Transcript } from '../../model/transcript.js';
import { type WireProblem, wireProblems } from '../provider-rules/index.js';
import { getCodec } from '../registry.js';
import { canonicalTranscript } from './canonical.js';
import { conversionLosses, type Loss } from './losses.js';

/** Options of {@link convertTranscript}. */
export interface ConvertOptions {
  /**
   * When the transcript was read in the target format, write it in its own envelope and dialect (a SWE-agent
   * `.traj`, a tau-bench run…) instead of the API's canonical shape. Ignored across formats.
   * @default false
   */
  readonly keepDialect?: boolean;
}

/** A converted transcript: the wire value, what could not be carried, and the provider rules it breaks. */
export interface Conversion {
  readonly wire: unknown;
  readonly losses: readonly Loss[];
  /** Provider-rule problems of the canonical output (OpenAI and Anthropic; empty for other formats). */
  readonly problems: readonly WireProblem[];
}

/**
 * Converts one transcript to `to`'s canonical wire shape (`{"messages": [...]}` per transcript for OpenAI, the
 * AI SDK…), reporting every loss ({@link conversionLosses}) and checking the provider's rules on the result. A
 * recorded run that stopped mid-step may end with an unanswered call; that is not counted as a problem.
 */
export function convertTranscript(
  transcript: Transcript,
  to: FormatName,
  options: ConvertOptions = {},
): Conversion {
  const target = getCodec(to);
  const from = transcript.meta?.format;
  const keep = options.keepDialect === true && from === to;
  const canonical = canonicalTranscript(transcript);
  const wire = target.encode(keep ? transcript : canonical);
  const sourceFields = keep || from === undefined ? {} : (getCodec(from).dialectFields?.(transcript) ?? {});
  const losses = keep ? [] : conversionLosses(transcript, target, sourceFields);
  const checked = keep ? target.encode(canonical) : wire;
  return { wire, losses, problems: wireProblems(to, checked, { trailingCalls: false }) };
}
