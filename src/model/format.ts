/** Wire formats condense reads and writes; the names used by the CLI's `--format` / `--to` and the library. */
export const FORMAT_NAMES = [
  'openai',
  'anthropic',
  'sharegpt',
  'ai-sdk',
  'claude-code',
  'openai-responses',
  'codex',
] as const;

/** A wire format name. */
export type FormatName = (typeof FORMAT_NAMES)[number];

/** True when `value` names a supported wire format. */
export function isFormatName(value: unknown): value is FormatName {
  return typeof value === 'string' && (FORMAT_NAMES as readonly string[]).includes(value);
}
