import { positionAbove } from '../model/arrays.js';
import { isPieceSeparator, maskEvents } from './mask.js';

/**
 * Masked values glued inside one token (`--password=«redacted»,--password=«redacted»,…`, as the idempotence
 * pass reads its own output): each is rejected, so the scan goes on at the next name inside it, and looking for
 * masks in each value to its end was quadratic (160 KB: 4 s). Once one value `text[from, to)` is found masked,
 * every later value that ends at `to` and starts outside its masks holds the same masks from its start on,
 * and the same text between them, none of which holds a letter or digit that counts: it is masked unless the
 * text glued before its first mask holds one.
 */
export interface MaskedTail {
  readonly from: number;
  /** The masks of `text[from, to)` in the order found, flattened `[start, end)` pairs. */
  readonly masks: number[];
  /** The greatest start of the masks up to each one, in that order. */
  readonly startsUpTo: number[];
  /** The masks sorted by start, and the greatest end of those up to each. */
  readonly byStart: number[];
  readonly endsUpTo: number[];
  /** The greatest end of the masks found before each one. */
  readonly endsBefore: number[];
  /** Per mask, where the text glued before it may start, and the last letter or digit there (-1: none). */
  readonly glued: Map<number, { readonly from: number; readonly lastLetter: number }>;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The masks of `text[from, to)`, a value found masked, for the values after it. */
export function maskedTail(text: string, from: number, to: number): MaskedTail {
  const masks = maskEvents(text, from, to);
  const startsUpTo: number[] = [];
  const endsBefore: number[] = [];
  for (let index = 0; index < masks.length; index += 2) {
    startsUpTo.push(Math.max(startsUpTo[startsUpTo.length - 1] ?? -1, masks[index] as number));
    endsBefore.push(Math.max(endsBefore[endsBefore.length - 1] ?? from, masks[index - 1] ?? from));
  }
  const order = [...Array(masks.length / 2).keys()].sort(
    (left, right) => (masks[left * 2] as number) - (masks[right * 2] as number),
  );
  const byStart: number[] = [];
  const endsUpTo: number[] = [];
  for (const index of order) {
    byStart.push(masks[index * 2] as number);
    endsUpTo.push(Math.max(endsUpTo[endsUpTo.length - 1] ?? -1, masks[index * 2 + 1] as number));
  }
  return { from, masks, startsUpTo, byStart, endsUpTo, endsBefore, glued: new Map() };
}

/** The number of elements of the ascending `values` below `limit` (positions: integers). */
function countBelow(values: readonly number[], limit: number): number {
  return positionAbove(values, limit - 1);
}

/**
 * Whether `text[start, to)` is masked, from the masks of the value before it in the same tail; undefined when
 * that cannot tell (`start` inside one of its masks, or before it).
 */
export function maskedFrom(text: string, tail: MaskedTail, start: number): boolean | undefined {
  if (start < tail.from) return undefined;
  const before = countBelow(tail.byStart, start);
  if (before > 0 && (tail.endsUpTo[before - 1] as number) > start) return undefined;
  // The first mask found from `start` on: the first whose start, or an earlier one's, reaches it.
  const first = countBelow(tail.startsUpTo, start);
  if (first === tail.startsUpTo.length) return false;
  const glued = gluedBefore(text, tail, first);
  return glued.lastLetter < Math.max(start, glued.from);
}

/**
 * The text glued before mask `index`: back to a separator, but not before the masks found ahead of it (a value
 * that starts at this mask first starts after all of those).
 */
function gluedBefore(text: string, tail: MaskedTail, index: number) {
  const known = tail.glued.get(index);
  if (known !== undefined) return known;
  const end = tail.masks[index * 2] as number;
  const floor = tail.endsBefore[index] as number;
  let from = end;
  while (from > floor && !isPieceSeparator(text[from - 1] as string)) from--;
  // Read as code points of this stretch alone, as the mask scan reads a slice of it.
  let lastLetter = -1;
  for (let index = from; index < end; ) {
    const code = text.codePointAt(index) as number;
    const width = code > 0xffff && index + 1 < end ? 2 : 1;
    if (LETTER_OR_DIGIT.test(width === 2 ? String.fromCodePoint(code) : (text[index] as string)))
      lastLetter = index;
    index += width;
  }
  const glued = { from, lastLetter };
  tail.glued.set(index, glued);
  return glued;
}
