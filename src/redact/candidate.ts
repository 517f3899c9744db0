import type { SecretKind } from './kinds.js';

/**
 * How a secret is masked. `ends` keeps a short head and tail of long printable-ASCII secrets (enough to tell
 * two keys apart while debugging); `full` hides everything (passwords, short secrets); `marker` replaces the
 * whole span with a fixed label (private key blocks, whose head and tail are boilerplate).
 */
export type MaskStyle = 'ends' | 'full' | 'marker';

/** A span of the input a rule wants masked. Spans of different rules may overlap; the redactor merges them. */
export interface Candidate {
  readonly start: number;
  readonly end: number;
  readonly kind: SecretKind;
  readonly style: MaskStyle;
}

/** Collects the candidates of one text; rules push into it. */
export type CandidateSink = Candidate[];

/** Records a candidate unless the span is empty. */
export function pushCandidate(
  out: CandidateSink,
  start: number,
  end: number,
  kind: SecretKind,
  style: MaskStyle,
): void {
  if (end > start) out.push({ start, end, kind, style });
}
