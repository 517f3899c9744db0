import { type CandidateSink, pushCandidate } from '../candidate.js';
import type { SecretKind } from '../kinds.js';
import { classifySecretName } from '../names.js';
import { isPlausibleValue, type ValueSpan } from '../values.js';

/**
 * Masks the value of a name/value pair when the name announces a secret and the value is a real one.
 * Passwords are masked whole; keys and tokens keep their ends when long. Returns true when it masked.
 */
export function pushNamedValue(
  out: CandidateSink,
  text: string,
  name: string,
  value: ValueSpan,
  kind: SecretKind,
): boolean {
  const nameClass = classifySecretName(name);
  if (nameClass === undefined) return false;
  if (!isPlausibleValue(text, value, name, nameClass)) return false;
  pushCandidate(out, value.start, value.end, kind, nameClass === 'password' ? 'full' : 'ends');
  return true;
}

/**
 * True when only blanks, an optional comma and an optional `#` comment follow `pos` on its line, or the quote
 * that ends the JSON string the line is in.
 */
export function restOfLineIsEmpty(text: string, pos: number): boolean {
  let index = pos;
  while (text[index] === ' ' || text[index] === '\t') index++;
  // The quote ending a JSON string held in the text, or a backslash left of an escaped line break, ends it.
  let escaped = index;
  while (text[escaped] === '\\') escaped++;
  if (text[escaped] === '"' || (escaped > index && (text[escaped] === '\n' || text[escaped] === '\r')))
    return true;
  if (text[index] === ',') index++;
  while (text[index] === ' ' || text[index] === '\t') index++;
  const code = text.charCodeAt(index);
  return index >= text.length || code === 0x0a || code === 0x0d || code === 0x23;
}

/** The end of the line that contains `pos` (index of its line break, or the text length). */
export function lineEnd(text: string, pos: number): number {
  let index = pos;
  while (index < text.length && text[index] !== '\n' && text[index] !== '\r') index++;
  return index;
}
