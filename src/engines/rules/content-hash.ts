import type { Message } from '../../model/message.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a (32-bit) of a string, as 8 lower-case hex digits. Code units above 0xff are fed as two bytes, so every
 * character counts. Not a cryptographic hash: it verifies that a reference still points at the content it was
 * made from, it does not protect against forgery.
 */
export function fnv1a(text: string): string {
  let hash = FNV_OFFSET;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    hash = Math.imul(hash ^ (unit & 0xff), FNV_PRIME);
    if (unit > 0xff) hash = Math.imul(hash ^ (unit >>> 8), FNV_PRIME);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** JSON text with object keys sorted at every level and `undefined` members left out: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item !== undefined) members.push(`${JSON.stringify(key)}:${canonicalJson(item)}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * The content hash of a message: its role and parts (what the model reads), not its id or codec data, so the
 * same message decoded again from the same file, or from a re-encoded copy, hashes the same.
 */
export function messageHash(message: Message): string {
  return fnv1a(canonicalJson({ role: message.role, parts: message.parts }));
}
