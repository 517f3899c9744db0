/**
 * Deterministic identifiers for records condense writes itself: no randomness and no clock, so the same
 * transcript always encodes to the same file.
 */

const SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b] as const;

function hex8(hash: number): string {
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * 32 hex digits derived from `text`: FNV-1a under four seeds, one after the other. The four run in one pass, since
 * the text can be a whole transcript's JSON (a session id) and each character is read once instead of four times.
 */
export function hashHex(text: string): string {
  let a = SEEDS[0];
  let b = SEEDS[1];
  let c = SEEDS[2];
  let d = SEEDS[3];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x01000193) >>> 0;
    c = Math.imul(c ^ code, 0x01000193) >>> 0;
    d = Math.imul(d ^ code, 0x01000193) >>> 0;
  }
  return hex8(a) + hex8(b) + hex8(c) + hex8(d);
}

/** A version-4-shaped UUID derived from `text`. */
export function hashUuid(text: string): string {
  const hex = hashHex(text);
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for text shaped like a UUID. */
export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

/** A UUID derived from `text` that is not in `used` (re-derived with a counter on collision). */
export function freshUuid(text: string, used: ReadonlySet<string>): string {
  let uuid = hashUuid(text);
  for (let salt = 1; used.has(uuid); salt++) uuid = hashUuid(`${text}#${salt}`);
  return uuid;
}
