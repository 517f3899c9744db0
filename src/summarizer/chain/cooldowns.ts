import type { SummarizerFailure } from '../summarizer-error.js';

/** How long a model is left alone after a failure, by failure class, in milliseconds. */
export interface CooldownPolicy {
  /** After consecutive timeouts: the first, second, third and later. @default [60000, 300000, 900000] */
  readonly timeoutMs: readonly number[];
  /** After an unusable answer or a dropped connection. @default 30000 */
  readonly transientMs: number;
  /** After a refused key or an exhausted quota. @default 60000 */
  readonly authMs: number;
  /** After anything else (rate limit, server error, missing model). @default 60000 */
  readonly defaultMs: number;
}

/** The default {@link CooldownPolicy}. */
export const DEFAULT_COOLDOWNS: CooldownPolicy = {
  timeoutMs: [60_000, 300_000, 900_000],
  transientMs: 30_000,
  authMs: 60_000,
  defaultMs: 60_000,
};

/** The cooldown after a failure; `timeoutStreak` counts consecutive timeouts including this one. */
export function cooldownFor(
  failure: SummarizerFailure,
  timeoutStreak: number,
  policy: CooldownPolicy,
): number {
  switch (failure) {
    case 'timeout': {
      const steps = policy.timeoutMs;
      if (steps.length === 0) return policy.defaultMs;
      return steps[Math.min(Math.max(timeoutStreak, 1), steps.length) - 1] ?? policy.defaultMs;
    }
    case 'invalid-response':
    case 'network':
      return policy.transientMs;
    case 'auth':
    case 'quota':
      return policy.authMs;
    case 'rate-limit':
    case 'model-not-found':
    case 'other':
      return policy.defaultMs;
  }
}
