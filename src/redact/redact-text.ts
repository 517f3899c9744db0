import type { RedactTextResult } from './apply-candidates.js';
import type { RedactOptions } from './options.js';
import { createRedactor } from './redactor.js';

/**
 * Masks every secret in `text` and lists what was masked (kind and offsets in `text`, never the secret).
 * Linear in the length of the text; idempotent: redacting the result again changes nothing. To redact many
 * texts with the same options, build a {@link createRedactor} once.
 */
export function redactText(text: string, options: RedactOptions = {}): RedactTextResult {
  return createRedactor(options).text(text);
}
