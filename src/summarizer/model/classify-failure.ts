import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  LoadAPIKeyError,
  NoContentGeneratedError,
  NoOutputGeneratedError,
  TypeValidationError,
} from 'ai';
import { SummarizerError, type SummarizerFailure } from '../summarizer-error.js';

/** What the classifier knows besides the error. */
export interface FailureContext {
  readonly model: string;
  /** True when condense's own timeout fired (as opposed to the caller's signal). */
  readonly timedOut: boolean;
  readonly redact: (text: string) => string;
}

const QUOTA =
  /insufficient_quota|quota[ _]exceeded|exceeded your (?:current )?quota|billing|out of (?:funds|credits?)|credit balance|payment required/i;
const AUTH =
  /invalid[_ ]api[_ ]key|incorrect api key|authentication|unauthori[sz]ed|no api key|api key is missing|permission denied|invalid x-api-key/i;
const MODEL_MISSING =
  /model[_ ]not[_ ]found|does not exist|no such model|unknown model|no available channel|not_found_error/i;
const NETWORK =
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EPIPE|ETIMEDOUT|UND_ERR_\w+|socket hang up|other side closed|terminated|fetch failed|cannot connect to api|network|premature close|connection (?:reset|refused|closed)/i;
const TIMEOUT = /timed? ?out|timeout/i;

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message];
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 4; depth++) {
    const code = (cause as Error & { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${cause.message} (${code})` : cause.message);
    cause = cause.cause;
  }
  return parts.filter((part) => part !== '').join(': ');
}

function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  return undefined;
}

function fromStatus(status: number, text: string): { failure: SummarizerFailure; retryable: boolean } {
  // A 2xx that still failed: the body was unreadable, or the connection dropped while it was being read.
  if (status >= 200 && status < 300) {
    return { failure: NETWORK.test(text) ? 'network' : 'invalid-response', retryable: true };
  }
  if (QUOTA.test(text) || status === 402) return { failure: 'quota', retryable: false };
  if (status === 401 || status === 403) return { failure: 'auth', retryable: false };
  if (status === 404 || MODEL_MISSING.test(text)) return { failure: 'model-not-found', retryable: false };
  if (status === 408) return { failure: 'timeout', retryable: true };
  if (status === 429 || status === 529) return { failure: 'rate-limit', retryable: true };
  if (status >= 500) return { failure: 'other', retryable: true };
  if (AUTH.test(text)) return { failure: 'auth', retryable: false };
  return { failure: 'other', retryable: false };
}

/**
 * A Responses API answer that arrived (HTTP 200) as a response object with `status: "failed"`: the AI SDK raises it
 * as a 400 (or as an unreadable answer when the error lacks fields its schema wants), so the error code decides
 * instead: a server error or rate limit is worth retrying, a bad prompt is not.
 */
function failedResponse(body: string): { failure: SummarizerFailure; retryable: boolean } | undefined {
  if (!body.includes('"failed"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const object = parsed as { object?: unknown; status?: unknown; error?: { code?: unknown } | null };
  if (object.object !== 'response' || object.status !== 'failed') return undefined;
  const code = typeof object.error?.code === 'string' ? object.error.code : '';
  if (code === 'rate_limit_exceeded') return { failure: 'rate-limit', retryable: true };
  if (QUOTA.test(code)) return { failure: 'quota', retryable: false };
  if (code === 'server_error' || code === '' || /timeout|unavailable/.test(code)) {
    return { failure: 'other', retryable: true };
  }
  return { failure: 'other', retryable: false };
}

function isInvalidResponse(error: unknown): boolean {
  return (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error) ||
    NoContentGeneratedError.isInstance(error) ||
    NoOutputGeneratedError.isInstance(error)
  );
}

/**
 * Turns whatever a model call threw into a {@link SummarizerError}: HTTP status and provider error text decide
 * between auth, quota, missing model, rate limit and server errors; unreadable answers are `invalid-response`;
 * refused or dropped connections are `network`; condense's own timeout is `timeout`. The message is redacted.
 */
export function classifyFailure(error: unknown, context: FailureContext): SummarizerError {
  if (error instanceof SummarizerError) return error;
  const base = { model: context.model, cause: error };
  const message = (text: string) => context.redact(`${context.model}: ${text}`.slice(0, 600));
  if (context.timedOut) {
    return new SummarizerError({
      ...base,
      failure: 'timeout',
      retryable: true,
      message: message('the request timed out'),
    });
  }
  const text = describe(error);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const body = (error.responseBody ?? '').slice(0, 2000);
    if (status === undefined) {
      const failure: SummarizerFailure = NETWORK.test(text)
        ? 'network'
        : TIMEOUT.test(text)
          ? 'timeout'
          : 'network';
      return new SummarizerError({ ...base, failure, retryable: true, message: message(text) });
    }
    const failed = failedResponse(body);
    const kind = failed ?? fromStatus(status, `${text}\n${body}`);
    const wait = retryAfterMs(error.responseHeaders);
    return new SummarizerError({
      ...base,
      ...kind,
      status,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
      message: message(
        `HTTP ${status}: ${(status >= 400 || failed !== undefined ? firstMessage(body) : undefined) ?? error.message}`,
      ),
    });
  }
  if (LoadAPIKeyError.isInstance(error)) {
    return new SummarizerError({ ...base, failure: 'auth', retryable: false, message: message(text) });
  }
  if (isInvalidResponse(error)) {
    return new SummarizerError({
      ...base,
      failure: 'invalid-response',
      retryable: true,
      message: message(text),
    });
  }
  if (NETWORK.test(text)) {
    return new SummarizerError({ ...base, failure: 'network', retryable: true, message: message(text) });
  }
  if (TIMEOUT.test(text)) {
    return new SummarizerError({ ...base, failure: 'timeout', retryable: true, message: message(text) });
  }
  return new SummarizerError({ ...base, failure: 'other', retryable: false, message: message(text) });
}

/** The `message` of a provider's JSON error body (`{error:{message}}` or `{message}`), if it has one. */
function firstMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const nested = typeof parsed.error === 'object' ? parsed.error?.message : parsed.error;
    const value = nested ?? parsed.message;
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return body.trim() === '' ? undefined : body.trim().slice(0, 300);
  }
}
