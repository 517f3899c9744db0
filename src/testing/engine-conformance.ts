import { isContextOverflow } from '../engines/budget-error.js';
import type { CompactionResult, CompressOptions, ContextEngine } from '../engines/context-engine.js';
import type { Transcript } from '../model/transcript.js';
import { createRoughCounter } from '../tokens/rough-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { type EngineConformanceCase, generatedConformanceCases } from './conformance-transcripts.js';
import {
  deepFrozenCopy,
  type EngineCheck,
  type EngineConformanceFailure,
  isFrozenWrite,
  outputFailures,
  reportFailures,
  sameMessages,
} from './engine-invariants.js';

export type { EngineConformanceCase } from './conformance-transcripts.js';
export type { EngineCheck, EngineConformanceFailure } from './engine-invariants.js';

/** Options of {@link runEngineConformance}. */
export interface EngineConformanceOptions {
  /** Makes a fresh engine; the suite sets its window with `updateModel({ contextLength, maxOutputTokens: 0 })`. */
  readonly create: () => ContextEngine;
  /** Transcripts to check beside the generated ones (fixtures, real sessions). */
  readonly transcripts?: readonly EngineConformanceCase[];
  /** Check the generated coding sessions too. @default true */
  readonly generated?: boolean;
  /** Sizes the windows and measures outputs; give the engine's own when it does not count roughly. */
  readonly counter?: TokenCounter;
  /** The smallest window the suite gives an engine. @default 2_000 */
  readonly minimumWindow?: number;
}

/** What {@link runEngineConformance} found. */
export interface EngineConformanceResult {
  /** Transcripts checked. */
  readonly cases: number;
  /** Every broken invariant; empty when the engine conforms. */
  readonly failures: readonly EngineConformanceFailure[];
  /** Steps that did not apply to a transcript (e.g. its output stayed above the threshold), with why. */
  readonly skipped: readonly string[];
}

type Outcome =
  | { readonly kind: 'result'; readonly result: CompactionResult }
  | { readonly kind: 'overflow'; readonly best: CompactionResult }
  | { readonly kind: 'failed' };

/**
 * The contract every context engine keeps, checked on generated coding sessions and on the transcripts given:
 * the output breaks no provider rule the input kept, the latest request comes back verbatim, the system prompt
 * byte-identical; the output fits the window or `BUDGET_UNREACHABLE` is raised (its best result held to the
 * same rules); an unforced second pass below the threshold changes nothing; the input, deep-frozen, is never
 * written; passes trigger at the threshold, past the window and when forced, and nowhere else; the report
 * counts what it returns and says why when nothing changed. Test-framework neutral: assert `failures` is empty.
 */
export async function runEngineConformance(
  options: EngineConformanceOptions,
): Promise<EngineConformanceResult> {
  const counter = options.counter ?? createRoughCounter();
  const cases = [
    ...(options.generated === false ? [] : generatedConformanceCases()),
    ...(options.transcripts ?? []),
  ];
  const failures: EngineConformanceFailure[] = [];
  const skipped: string[] = [];
  for (const item of cases) {
    const input = deepFrozenCopy(item.transcript);
    const fail = (step: string, check: EngineCheck, detail: string) =>
      failures.push({ case: item.name, step, check, detail });
    const tokens = counter.countTranscript(input);
    const tight = Math.max(options.minimumWindow ?? 2_000, Math.floor(tokens / 2));
    await tightWindow(options, input, tokens, tight, counter, fail, (why) =>
      skipped.push(`${item.name}: ${why}`),
    );
    await roomyWindow(options, input, tokens, counter, fail);
  }
  return { cases: cases.length, failures, skipped };
}

type Fail = (step: string, check: EngineCheck, detail: string) => void;

/** A window about half the transcript: forced and unforced passes must fit it or raise `BUDGET_UNREACHABLE`. */
async function tightWindow(
  options: EngineConformanceOptions,
  input: Transcript,
  tokens: number,
  window: number,
  counter: TokenCounter,
  fail: Fail,
  skip: (why: string) => void,
): Promise<void> {
  const forced = windowed(options, window);
  const step = `forced pass, ${window}-token window`;
  const outcome = await attempt(forced, input, { force: true }, step, window, counter, fail);
  if (outcome.kind === 'result') {
    const output = outcome.result.transcript;
    const size = counter.countTranscript(output);
    const threshold = forced.status().thresholdTokens;
    if (size >= threshold) {
      skip(`no second pass: the forced output (${size} tokens) is not below the threshold (${threshold})`);
    } else {
      const again = `unforced second pass below the threshold (${size} < ${threshold})`;
      const snapshot = JSON.stringify(output);
      const second = await attempt(forced, output, {}, again, window, counter, fail);
      if (JSON.stringify(output) !== snapshot)
        fail(again, 'input-mutated', 'the first output was written to');
      if (second.kind === 'result' && !sameMessages(output, second.result.transcript))
        fail(again, 'idempotent', 'the second pass changed the output of the first');
      if (second.kind === 'result' && second.result.report.madeProgress)
        fail(again, 'idempotent', 'the second pass reports progress');
    }
  }
  if (tokens <= window) return;
  const mandatory = windowed(options, window);
  const unforced = `unforced pass past the ${window}-token window (${tokens} tokens)`;
  if (!mandatory.shouldCompress(tokens))
    fail(unforced, 'threshold', 'shouldCompress is false past the window');
  await attempt(mandatory, input, {}, unforced, window, counter, fail);
}

/** A window far above the transcript: nothing happens unforced, a forced pass keeps the same invariants. */
async function roomyWindow(
  options: EngineConformanceOptions,
  input: Transcript,
  tokens: number,
  counter: TokenCounter,
  fail: Fail,
): Promise<void> {
  const window = tokens * 20 + 10_000;
  const engine = windowed(options, window);
  const step = `unforced pass, ${window}-token window`;
  const { thresholdTokens } = engine.status();
  if (tokens >= thresholdTokens) {
    fail(
      step,
      'threshold',
      `threshold ${thresholdTokens} is not above ${tokens} tokens in a ${window}-token window`,
    );
    return;
  }
  if (engine.shouldCompress(tokens))
    fail(step, 'threshold', `shouldCompress(${tokens}) is true below the threshold`);
  if (engine.shouldCompress())
    fail(step, 'threshold', 'shouldCompress() is true before any usage was reported');
  if (!engine.shouldCompress(thresholdTokens))
    fail(step, 'threshold', `shouldCompress(${thresholdTokens}) is false at the threshold`);
  if (!engine.shouldCompress(window + 1)) fail(step, 'threshold', 'shouldCompress is false past the window');
  const idle = await attempt(engine, input, {}, step, window, counter, fail);
  if (idle.kind === 'result') {
    if (!sameMessages(input, idle.result.transcript))
      fail(step, 'threshold', 'a pass below the threshold changed the transcript');
    if (idle.result.report.madeProgress)
      fail(step, 'threshold', 'a pass below the threshold reports progress');
  }
  engine.updateFromResponse({ promptTokens: thresholdTokens });
  if (!engine.shouldCompress())
    fail(step, 'threshold', 'a reported prompt at the threshold does not trigger');
  const forced = windowed(options, window);
  await attempt(forced, input, { force: true }, `forced pass, ${window}-token window`, window, counter, fail);
}

function windowed(options: EngineConformanceOptions, contextLength: number): ContextEngine {
  const engine = options.create();
  engine.updateModel({ contextLength, maxOutputTokens: 0 });
  return engine;
}

/** One pass, with every output invariant checked on its result (or on the best result of an overflow). */
async function attempt(
  engine: ContextEngine,
  input: Transcript,
  compress: CompressOptions,
  step: string,
  window: number,
  counter: TokenCounter,
  fail: Fail,
): Promise<Outcome> {
  let outcome: Outcome;
  try {
    outcome = { kind: 'result', result: await engine.compress(input, compress) };
  } catch (error) {
    if (isFrozenWrite(error)) {
      fail(step, 'input-mutated', (error as Error).message);
      return { kind: 'failed' };
    }
    if (!isContextOverflow(error)) {
      fail(step, 'threw', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      return { kind: 'failed' };
    }
    outcome = { kind: 'overflow', best: error.details.best };
  }
  const result = outcome.kind === 'result' ? outcome.result : outcome.best;
  const label = outcome.kind === 'result' ? step : `${step} (best result of BUDGET_UNREACHABLE)`;
  for (const failure of outputFailures(input, result.transcript)) fail(label, failure.check, failure.detail);
  for (const failure of reportFailures(input, result, engine.name))
    fail(label, failure.check, failure.detail);
  const size = counter.countTranscript(result.transcript);
  if (outcome.kind === 'result' && size > window && !result.report.aborted)
    fail(step, 'budget', `the output takes ${size} tokens of a ${window}-token window`);
  return outcome;
}
