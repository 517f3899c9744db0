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
const ENDS_MASK = /^[\x21-\x7e]{6}…[\x21-\x7e]{4}$/;

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

/**
 * True when `value` is something {@link maskSecret} produced (or contains one of its labels): such a value is
 * never masked again, which is what makes redaction idempotent.
 */
export function isMasked(value: string): boolean {
  if (value.includes('«redacted')) return true;
  return value.length === HEAD + 1 + TAIL && ENDS_MASK.test(value);
}
