import type { Candidate, MaskStyle } from './candidate.js';
import type { SecretKind } from './kinds.js';
import { SECRET_KINDS } from './kinds.js';
import { maskSecret } from './mask.js';

/** Where a secret was, in the input text, and what it was. Never the secret itself. */
export interface RedactionFinding {
  readonly kind: SecretKind;
  /** Offset of the first masked character in the input. */
  readonly start: number;
  /** Offset after the last masked character in the input. */
  readonly end: number;
}

/** The redacted text and what was masked. */
export interface RedactTextResult {
  readonly text: string;
  readonly findings: readonly RedactionFinding[];
}

// When spans of several rules overlap they become one span, named by the most specific rule: a service-account
// file over a private key over a vendor token over the generic name-based passes.
const PRIORITY = new Map<string, number>([
  ['gcp-service-account', -2],
  ['private-key', -1],
  ...SECRET_KINDS.map((kind, index) => [kind, index] as const),
]);

function priority(kind: SecretKind): number {
  return PRIORITY.get(kind) ?? SECRET_KINDS.length;
}

function strongerStyle(left: MaskStyle, right: MaskStyle): MaskStyle {
  if (left === 'marker' || right === 'marker') return 'marker';
  if (left === 'full' || right === 'full') return 'full';
  return 'ends';
}

/** Merges overlapping candidates into disjoint spans, in order. */
export function mergeCandidates(candidates: readonly Candidate[]): Candidate[] {
  const sorted = [...candidates].sort((left, right) => left.start - right.start || right.end - left.end);
  const merged: Candidate[] = [];
  for (const candidate of sorted) {
    const last = merged[merged.length - 1];
    if (last === undefined || candidate.start >= last.end) {
      merged.push(candidate);
      continue;
    }
    merged[merged.length - 1] = {
      start: last.start,
      end: Math.max(last.end, candidate.end),
      kind: priority(candidate.kind) < priority(last.kind) ? candidate.kind : last.kind,
      style: strongerStyle(last.style, candidate.style),
    };
  }
  return merged;
}

/** One mask of a pass: where it sits in the pass's output and which span of its input it replaced. */
interface MaskSegment {
  readonly outStart: number;
  readonly outEnd: number;
  readonly inStart: number;
  readonly inEnd: number;
}

/** Maps offsets of a pass's output back to its input. */
class PassMap {
  readonly #segments: readonly MaskSegment[];

  constructor(segments: readonly MaskSegment[]) {
    this.#segments = segments;
  }

  /** The input offset of an output offset; inside a mask, a start goes to the mask's start, an end to its end. */
  toInput(pos: number, side: 'start' | 'end'): number {
    let low = 0;
    let high = this.#segments.length - 1;
    let found: MaskSegment | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const segment = this.#segments[middle] as MaskSegment;
      if (side === 'start' ? segment.outStart <= pos : segment.outStart < pos) {
        found = segment;
        low = middle + 1;
      } else high = middle - 1;
    }
    if (found === undefined) return pos;
    if (side === 'start' ? pos < found.outEnd : pos <= found.outEnd)
      return side === 'start' ? found.inStart : found.inEnd;
    return pos - found.outEnd + found.inEnd;
  }
}

function render(text: string, spans: readonly Candidate[]): { text: string; map: PassMap } {
  let out = '';
  let cursor = 0;
  const segments: MaskSegment[] = [];
  for (const span of spans) {
    out += text.slice(cursor, span.start);
    const mask = maskSecret(text.slice(span.start, span.end), span.style);
    segments.push({
      outStart: out.length,
      outEnd: out.length + mask.length,
      inStart: span.start,
      inEnd: span.end,
    });
    out += mask;
    cursor = span.end;
  }
  return { text: out + text.slice(cursor), map: new PassMap(segments) };
}

/**
 * A pass can only see the text it is given, and masking changes what neighbours see (a multi-line key becomes
 * one line, a boundary character disappears into a mask). Re-scanning the output until nothing new is found
 * makes redaction idempotent by construction; real texts settle after one or two passes.
 */
const MAX_PASSES = 5;

/**
 * Masks what `collect` finds, again on the result until nothing is found, and reports every masked span in
 * offsets of the input. Returns the input itself when nothing is found.
 */
export function redactWithPasses(
  input: string,
  collect: (text: string) => readonly Candidate[],
): RedactTextResult {
  let text = input;
  const maps: PassMap[] = [];
  const spans: Candidate[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const candidates = collect(text);
    if (candidates.length === 0) break;
    const merged = mergeCandidates(candidates);
    for (const span of merged) {
      let start = span.start;
      let end = span.end;
      for (let index = maps.length - 1; index >= 0; index--) {
        const map = maps[index] as PassMap;
        start = map.toInput(start, 'start');
        end = map.toInput(end, 'end');
      }
      spans.push({ ...span, start, end });
    }
    const rendered = render(text, merged);
    maps.push(rendered.map);
    text = rendered.text;
  }
  if (spans.length === 0) return { text: input, findings: [] };
  const findings = mergeCandidates(spans).map(({ kind, start, end }) => ({ kind, start, end }));
  return { text, findings };
}
