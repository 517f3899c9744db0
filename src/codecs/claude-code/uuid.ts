/**
 * Deterministic identifiers for records condense writes itself: no randomness and no clock, so the same
 * transcript always encodes to the same file.
 */

const SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b] as const;

function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** 32 hex digits derived from `text`. */
export function hashHex(text: string): string {
  return SEEDS.map((seed) => fnv1a(text, seed).toString(16).padStart(8, '0')).join('');
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
