import { generateText, type LanguageModel } from 'ai';
import { CondenseError } from '../../errors/condense-error.js';
import { SummarizerError } from '../summarizer-error.js';
import { classifyFailure } from './classify-failure.js';
import { cleanAnswer } from './clean-answer.js';

/** Waits `ms` milliseconds, or rejects when `signal` aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A sleep on the event loop's timers; tests inject their own. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** How one summarizer request is sent and retried. */
export interface CallSettings {
  readonly model: LanguageModel;
  /** Spec or name, for messages. */
  readonly modelName: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly sleep: Sleep;
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly redact: (text: string) => string;
}

/** Says why an answer is not usable as a checkpoint, or undefined when it is. */
export type AnswerValidator = (text: string) => string | undefined;

/** A usable answer, and what it cost. */
export interface CallResult {
  readonly text: string;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** Requests sent, retries included. */
  readonly requests: number;
}

function aborted(signal: AbortSignal): CondenseError {
  return new CondenseError({
    code: 'ABORTED',
    message: 'the summary request was cancelled',
    cause: signal.reason,
  });
}

async function attempt(
  prompt: string,
  settings: CallSettings,
  signal: AbortSignal | undefined,
  validate: AnswerValidator | undefined,
) {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  try {
    const result = await generateText({
      model: settings.model,
      prompt,
      maxRetries: 0,
      abortSignal: combined,
      // Transcripts are not left stored on OpenAI's side by the Responses API (other providers ignore this).
      providerOptions: { openai: { store: false } },
      ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
      ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
    });
    if (result.finishReason === 'length') {
      // A checkpoint cut at the output limit has lost its last sections; asking again gets the same cut.
      throw new SummarizerError({
        failure: 'invalid-response',
        retryable: false,
        model: settings.modelName,
        message: `${settings.modelName}: the answer was cut at the model's output limit`,
      });
    }
    const text = cleanAnswer(result.text);
    if (text === '') {
      throw new SummarizerError({
        failure: 'invalid-response',
        retryable: true,
        model: settings.modelName,
        message: `${settings.modelName}: the model returned no checkpoint text`,
      });
    }
    const problem = validate?.(text);
    if (problem !== undefined) {
      throw new SummarizerError({
        failure: 'invalid-response',
        retryable: true,
        model: settings.modelName,
        message: `${settings.modelName}: ${settings.redact(problem)}`,
      });
    }
    return { text: settings.redact(text), usage: result.totalUsage };
  } catch (error) {
    if (signal?.aborted === true) throw aborted(signal);
    throw classifyFailure(error, {
      model: settings.modelName,
      timedOut: timeout.aborted,
      redact: settings.redact,
    });
  }
}

/**
 * Sends one prompt, retrying transient failures (rate limits, timeouts, dropped connections, server errors,
 * unusable answers: empty, or refused by `validate`) with exponential backoff, or the provider's `retry-after`
 * when it gives one. Rejects with a {@link SummarizerError} (its `calls` says how many requests were sent), or
 * with `ABORTED` when the caller's signal fires.
 */
export async function callModel(
  prompt: string,
  settings: CallSettings,
  signal?: AbortSignal,
  validate?: AnswerValidator,
): Promise<CallResult> {
  let requests = 0;
  for (let retry = 0; ; retry++) {
    requests++;
    try {
      const { text, usage } = await attempt(prompt, settings, signal, validate);
      return {
        text,
        requests,
        ...(usage.inputTokens === undefined ? {} : { inputTokens: usage.inputTokens }),
        ...(usage.outputTokens === undefined ? {} : { outputTokens: usage.outputTokens }),
      };
    } catch (error) {
      if (!(error instanceof SummarizerError)) throw error;
      if (!error.retryable || retry >= settings.maxRetries) throw error.withCalls(requests);
      const backoff = Math.min(settings.retryDelayMs * 2 ** retry, settings.maxRetryDelayMs);
      const wait = Math.min(error.retryAfterMs ?? backoff, settings.maxRetryDelayMs);
      try {
        await settings.sleep(wait, signal);
      } catch {
        if (signal?.aborted === true) throw aborted(signal);
        throw error.withCalls(requests);
      }
    }
  }
}
