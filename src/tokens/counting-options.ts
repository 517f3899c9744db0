import { CondenseError } from '../errors/condense-error.js';

/**
 * How a counter prices what surrounds the text of a transcript. Providers do not publish their framing costs;
 * the defaults follow OpenAI's published chat accounting (3 framing tokens per message plus the role) and are
 * the same for every counter, so rough and exact counts differ only in how they count text.
 */
export interface CountingOptions {
  /**
   * Tokens charged for every image, wherever it appears (message or tool result). Never derived from the size
   * of the payload: a base64 image costs what the provider charges for an image, not its text length.
   * @default 1500
   */
  readonly imageTokens?: number;
  /**
   * Tokens of framing per message: start and end markers and the role name.
   * @default 4
   */
  readonly messageOverhead?: number;
  /**
   * Tokens of framing per tool call beyond its name and arguments (call id, wrapper syntax).
   * @default 6
   */
  readonly toolCallOverhead?: number;
  /**
   * Tokens of framing per tool result beyond its content (call id, wrapper syntax).
   * @default 4
   */
  readonly toolResultOverhead?: number;
}

/** {@link CountingOptions} with every default filled in. */
export type ResolvedCountingOptions = Required<CountingOptions>;

/** The defaults of {@link CountingOptions}, in one place. */
export const DEFAULT_COUNTING_OPTIONS: ResolvedCountingOptions = {
  imageTokens: 1500,
  messageOverhead: 4,
  toolCallOverhead: 6,
  toolResultOverhead: 4,
};

/**
 * Fills in defaults and checks values: every figure must be a non-negative integer. Throws `INVALID_OPTIONS`
 * naming the option otherwise.
 */
export function resolveCountingOptions(options: CountingOptions = {}): ResolvedCountingOptions {
  const resolved = { ...DEFAULT_COUNTING_OPTIONS };
  for (const key of Object.keys(DEFAULT_COUNTING_OPTIONS) as (keyof CountingOptions)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new CondenseError({
        code: 'INVALID_OPTIONS',
        message: `token counting option ${key} must be a non-negative integer, got ${String(value)}`,
        hint: `leave it out to use the default (${DEFAULT_COUNTING_OPTIONS[key]})`,
      });
    }
    resolved[key] = value;
  }
  return resolved;
}
