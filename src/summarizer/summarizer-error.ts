import type { ErrorCode } from '../errors/codes.js';
import { CondenseError } from '../errors/condense-error.js';

/**
 * Why a model summarizer failed. `auth` and `quota` are sticky (retrying cannot help and the engine should
 * stop compacting rather than drop turns); `rate-limit`, `timeout`, `network`, `invalid-response` and server
 * errors are transient.
 */
export type SummarizerFailure =
  | 'auth'
  | 'quota'
  | 'rate-limit'
  | 'timeout'
  | 'network'
  | 'invalid-response'
  | 'model-not-found'
  | 'other';

/** Every failure class, for reports and exhaustive tests. */
export const SUMMARIZER_FAILURES: readonly SummarizerFailure[] = [
  'auth',
  'quota',
  'rate-limit',
  'timeout',
  'network',
  'invalid-response',
  'model-not-found',
  'other',
];

/** Options of a {@link SummarizerError}. */
export interface SummarizerErrorOptions {
  readonly failure: SummarizerFailure;
  /** Already redacted: provider messages can echo a key back. */
  readonly message: string;
  readonly retryable: boolean;
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number;
  /** Model spec (`openai:gpt-4o-mini`). */
  readonly model?: string;
  /** Delay the provider asked for before a retry (`retry-after`), in milliseconds. */
  readonly retryAfterMs?: number;
  /** Requests sent before giving up (retries included). */
  readonly calls?: number;
  readonly cause?: unknown;
}

const MARKER = Symbol.for('condense.summarizer-error');

const HINTS: Readonly<Record<SummarizerFailure, string>> = {
  auth: 'check the API key for this provider (or the base URL it is sent to)',
  quota: 'the account is out of credit or quota; top it up or configure another summary model',
  'rate-limit': 'the provider is rate-limiting; condense waits before trying the model again',
  timeout: 'the model took too long; raise the timeout or use a faster summary model',
  network: 'the provider could not be reached; check the base URL and the network',
  'invalid-response': 'the provider answered with something that is not a usable completion',
  'model-not-found': 'check the model id and that the provider serves it',
  other: 'see the message; the extractive checkpoint is used meanwhile',
};

function codeOf(failure: SummarizerFailure): ErrorCode {
  switch (failure) {
    case 'auth':
    case 'quota':
      return 'AUTH_FAILED';
    case 'timeout':
      return 'TIMEOUT';
    case 'rate-limit':
    case 'network':
    case 'invalid-response':
    case 'model-not-found':
    case 'other':
      return 'SUMMARY_FAILED';
  }
}

/** A model summarizer failure, classified. Its code is `AUTH_FAILED`, `TIMEOUT` or `SUMMARY_FAILED`. */
export class SummarizerError extends CondenseError {
  readonly failure: SummarizerFailure;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly model: string | undefined;
  readonly retryAfterMs: number | undefined;
  /** Requests sent before giving up. */
  readonly calls: number;
  readonly [MARKER] = true;

  constructor(options: SummarizerErrorOptions) {
    super({
      code: codeOf(options.failure),
      message: options.message,
      hint: HINTS[options.failure],
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.failure = options.failure;
    this.retryable = options.retryable;
    this.status = options.status;
    this.model = options.model;
    this.retryAfterMs = options.retryAfterMs;
    this.calls = options.calls ?? 0;
  }

  /** A copy that says how many requests were sent in all. */
  withCalls(calls: number): SummarizerError {
    return new SummarizerError({ ...this.options(), calls });
  }

  private options(): SummarizerErrorOptions {
    return {
      failure: this.failure,
      message: this.message,
      retryable: this.retryable,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.model === undefined ? {} : { model: this.model }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      calls: this.calls,
      ...(this.cause === undefined ? {} : { cause: this.cause }),
    };
  }
}

/** True for a {@link SummarizerError}, even one from another copy of the package. */
export function isSummarizerError(value: unknown): value is SummarizerError {
  return typeof value === 'object' && value !== null && MARKER in value;
}

/** True for failures that retrying cannot fix and that should stop compaction (bad key, no credit). */
export function isStickyFailure(failure: SummarizerFailure): failure is 'auth' | 'quota' {
  return failure === 'auth' || failure === 'quota';
}
