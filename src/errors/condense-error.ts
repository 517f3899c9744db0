import type { ErrorCode } from './codes.js';

const MARKER = Symbol.for('condense.error');

/** Where in an input a problem is. */
export interface ErrorLocation {
  readonly file?: string;
  /** 1-based line number (JSONL). */
  readonly line?: number;
  /** Path inside the JSON value, e.g. `['messages', 3, 'content']`. */
  readonly path?: readonly (string | number)[];
}

/** Options of a {@link CondenseError}. */
export interface CondenseErrorOptions {
  readonly code: ErrorCode;
  readonly message: string;
  /** What the user can do about it. */
  readonly hint?: string;
  readonly location?: ErrorLocation;
  readonly cause?: unknown;
}

/** The one error class condense throws; `code` is stable, `message` says what was wrong, `hint` what to do. */
export class CondenseError extends Error {
  override readonly name = 'CondenseError';
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly location: ErrorLocation | undefined;
  /** Lets {@link isCondenseError} recognise errors from other copies of the package. */
  readonly [MARKER] = true;

  constructor(options: CondenseErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.hint = options.hint;
    this.location = options.location;
  }

  /** Message, location and hint in one readable line. */
  describe(): string {
    const where = formatLocation(this.location);
    const head = where === '' ? this.message : `${where}: ${this.message}`;
    return this.hint === undefined ? head : `${head} (${this.hint})`;
  }
}

/** True for any {@link CondenseError}, even one from another copy of the package. */
export function isCondenseError(value: unknown): value is CondenseError {
  return typeof value === 'object' && value !== null && MARKER in value;
}

/** Renders `file:line path` for messages. */
export function formatLocation(location: ErrorLocation | undefined): string {
  if (location === undefined) return '';
  let out = location.file ?? '';
  if (location.line !== undefined) out += `${out === '' ? 'line ' : ':'}${location.line}`;
  if (location.path !== undefined && location.path.length > 0) {
    out += `${out === '' ? '' : ' '}at ${location.path.join('.')}`;
  }
  return out;
}
