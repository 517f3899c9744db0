import type { MaskStyle } from './candidate.js';

/** What a fully masked secret becomes. */
export const REDACTED = '«redacted»';

/** What a private key block becomes. */
export const REDACTED_PRIVATE_KEY = '«redacted private key»';

/**
 * Separates the kept head and tail of a long secret. U+2026 never occurs in a credential, and it is outside
 * every character class a rule matches secrets with, so a masked secret is never found again.
 */
export const MASK_ELLIPSIS = '…';

/**
 * Secrets at least this long keep their first {@link HEAD} and last {@link TAIL} characters. Hermes keeps
 * 6 + 4 from 18 characters on, which shows more than half of an 18-character secret; from 24 on at least 14
 * characters (over 80 bits of a random token) stay hidden.
 */
const REVEAL_MIN_LENGTH = 24;
const HEAD = 6;
const TAIL = 4;

/** Printable ASCII without spaces: the only secrets whose ends are shown (no surrogate pair can be split). */
const PRINTABLE = /^[\x21-\x7e]+$/;

/** The text that replaces `secret`. */
export function maskSecret(secret: string, style: MaskStyle): string {
  switch (style) {
    case 'marker':
      return REDACTED_PRIVATE_KEY;
    case 'full':
      return REDACTED;
    case 'ends':
      if (secret.length < REVEAL_MIN_LENGTH || !PRINTABLE.test(secret)) return REDACTED;
      return `${secret.slice(0, HEAD)}${MASK_ELLIPSIS}${secret.slice(-TAIL)}`;
  }
}

/** The part of {@link REDACTED} and {@link REDACTED_PRIVATE_KEY} that starts both. */
const LABEL_START = '«redacted';

function isPrintable(code: number): boolean {
  return code >= 0x21 && code <= 0x7e;
}

/**
 * The spans of `text` that masks cover (labels, and kept ends around `…`), as flattened `[start, end)` pairs
 * in order. Only these are never masked again: a secret glued to a mask (`hunter2«redacted»`) still is.
 */
export function maskSpans(text: string): number[] {
  const masks = maskEvents(text, 0, text.length);
  const spans: number[] = [];
  for (let index = 0; index < masks.length; index += 2) {
    const start = masks[index] as number;
    const end = masks[index + 1] as number;
    if (spans.length > 0 && (spans[spans.length - 1] as number) >= start)
      spans[spans.length - 1] = Math.max(spans[spans.length - 1] as number, end);
    else spans.push(start, end);
  }
  return spans;
}

/**
 * The masks {@link maskSpans} finds in `text[from, to)` taken on its own, as flattened `[start, end)` pairs in
 * the order they are found (labels and ellipses by position), before those that touch are merged.
 */
export function maskEvents(text: string, from: number, to: number): number[] {
  const masks: number[] = [];
  const find = (part: string, after: number) => {
    const index = text.indexOf(part, after);
    return index !== -1 && index + part.length <= to ? index : -1;
  };
  let label = find(LABEL_START, from);
  let ellipsis = find(MASK_ELLIPSIS, from);
  while (label !== -1 || ellipsis !== -1) {
    if (label !== -1 && (ellipsis === -1 || label < ellipsis)) {
      const close = find('»', label);
      const end = close === -1 ? label + LABEL_START.length : close + 1;
      masks.push(label, end);
      label = find(LABEL_START, end);
      continue;
    }
    let head = ellipsis;
    while (head > from && ellipsis - head < HEAD && isPrintable(text.charCodeAt(head - 1))) head--;
    let tail = ellipsis + 1;
    while (tail < to && tail - ellipsis - 1 < TAIL && isPrintable(text.charCodeAt(tail))) tail++;
    if (ellipsis - head === HEAD && tail - ellipsis - 1 === TAIL) masks.push(head, tail);
    ellipsis = find(MASK_ELLIPSIS, ellipsis + 1);
  }
  return masks;
}

const SEPARATOR = /[\s"'`\\,;{}[\]()<>]/;

/** True for a character that parts a mask from the text around it: what is beyond it is not glued to the mask. */
export const isPieceSeparator = (char: string): boolean => SEPARATOR.test(char);

/**
 * What is left to mask of a span that a rule found, as flattened `[start, end)` pairs: the whole span when no
 * mask is in it, else its pieces outside masks that hold a letter or digit.
 */
export function unmaskedPieces(text: string, start: number, end: number, spans = maskSpans(text)): number[] {
  // The first span that ends after `start` (spans are sorted and disjoint).
  let low = 0;
  let high = spans.length / 2;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((spans[middle * 2 + 1] as number) <= start) low = middle + 1;
    else high = middle;
  }
  const first = low * 2;
  if (first >= spans.length || (spans[first] as number) >= end) return [start, end];
  const pieces: number[] = [];
  let cursor = start;
  let afterMask = false;
  // Only what is glued to a mask can be the rest of a secret (`hunter2«redacted»`, `«redacted»p4ss`): text a
  // quote, space or bracket parts from the mask is what followed the secret (a rule reading a value to the end
  // of a line of JSON takes it in).
  const take = (to: number, beforeMask: boolean) => {
    let from = cursor;
    let until = to;
    if (afterMask) {
      const separator = text.slice(from, until).search(SEPARATOR);
      if (separator !== -1) until = from + separator;
    }
    if (beforeMask && until === to) {
      let last = until;
      while (last > from && !SEPARATOR.test(text[last - 1] ?? '')) last--;
      from = last;
    }
    if (until > from && /[\p{L}\p{N}]/u.test(text.slice(from, until))) pieces.push(from, until);
  };
  for (let index = first; index < spans.length && cursor < end; index += 2) {
    const spanStart = spans[index] as number;
    if (spanStart >= end) break;
    take(Math.min(spanStart, end), spanStart < end);
    cursor = Math.max(cursor, spans[index + 1] as number);
    afterMask = true;
  }
  take(end, false);
  return pieces;
}

/**
 * True when `value` holds nothing but masks (and punctuation): something {@link maskSecret} produced, which is
 * never masked again. That is what makes redaction idempotent.
 */
export function isMasked(value: string): boolean {
  return unmaskedPieces(value, 0, value.length).length === 0;
}
