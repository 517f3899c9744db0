import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ErrorCode } from '../errors/codes.js';
import { isCondenseError } from '../errors/condense-error.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import type { FormatName } from '../model/format.js';
import type { JsonObject } from '../model/json.js';
import {
  type AggregateCounts,
  aggregateMetricsJson,
  emptyAggregate,
  mergeAggregates,
} from '../trajectory/metrics-aggregate.js';
import { resolveTrajectorySettings } from '../trajectory/trajectory-settings.js';
import type { BatchEvent, BatchIssue, FileReport, TrajectoryRunReport } from './batch-events.js';
import { createEntryExecutor } from './create-executor.js';
import { createLocalDispatcher, type DispatcherSetup, type EntryDispatcher } from './entry-dispatcher.js';
import type { Timers } from './entry-executor.js';
import { entryOrderCounts } from './entry-order-counts.js';
import { openFileSink } from './file-sink.js';
import { type InputFile, resolveInputFiles } from './input-files.js';
import { type PreparedFile, prepareFile, type SampleOptions } from './prepare-file.js';
import { createProgressTracker, type ProgressTracker } from './progress.js';
import {
  type FinishedFile,
  finishedRecord,
  identityOf,
  loadResumeState,
  type ResumeState,
  STATE_FILE,
  saveResumeState,
  settingsFingerprint,
} from './resume-state.js';
import type { EntryResult, TrajectoryJobConfig, TrajectoryRuntime } from './trajectory-job.js';

/** Options of {@link runTrajectories}. */
export interface RunTrajectoriesOptions {
  /** JSONL/JSON files and directories of `*.jsonl` files. */
  readonly inputs: readonly string[];
  readonly cwd: string;
  /** Output directory. @default `<input>_compressed` (see `resolveInputFiles`) */
  readonly out?: string;
  /** @default '_compressed' */
  readonly suffix?: string;
  readonly config: TrajectoryJobConfig;
  /** Read every file as this format instead of detecting it. */
  readonly format?: FormatName;
  /** Entries in flight at once (bounds concurrent model calls). @default 50 */
  readonly concurrency?: number;
  /** Time allowed per trajectory, in milliseconds. @default 300000 */
  readonly timeoutMs?: number;
  /** Worker threads for the CPU work; 0 runs everything on this thread. @default 0 */
  readonly workers?: number;
  /** Keep a seeded sample of this percentage of each file's entries. */
  readonly samplePercent?: number;
  /** @default 42 */
  readonly seed?: number | string;
  /** Skip files an earlier run finished with the same settings. @default true */
  readonly resume?: boolean;
  /** Name of the aggregate metrics file in the output directory. @default 'compression_metrics.json' */
  readonly metricsFile?: string;
  /** Clock in milliseconds, for progress and the `processing` block. @default Date.now */
  readonly now?: () => number;
  readonly timers?: Timers;
  readonly onEvent?: (event: BatchEvent) => void;
  /** Counter and chain to use on this thread (tests inject a loopback model); built from `config` when absent. */
  readonly runtime?: TrajectoryRuntime;
  /** The built worker script. @default dist/batch/trajectory-worker.js */
  readonly workerScript?: URL;
  /**
   * Where entries run instead of this process (`createQueueDispatcher` for a Redis queue); ignored in a dry
   * run. @default worker threads or this thread, per `workers`
   */
  readonly dispatcher?: (setup: DispatcherSetup) => Promise<EntryDispatcher>;
}

const MAX_KEPT_ISSUES = 1000;

interface RunState {
  readonly options: RunTrajectoriesOptions;
  readonly emit: (event: BatchEvent) => void;
  readonly issues: BatchIssue[];
  readonly tracker: ProgressTracker;
  readonly fingerprint: string;
  resume: ResumeState;
  saving: Promise<void>;
  outputDir: string;
}

/** A file's failure for its report: the message with its hint (without the file, which the report names). */
function failureOf(error: unknown): { message: string; code?: ErrorCode } {
  if (!isCondenseError(error)) return { message: (error as Error).message };
  return {
    message: error.hint === undefined ? error.message : `${error.message} (${error.hint})`,
    code: error.code,
  };
}

function issue(run: RunState, found: BatchIssue): void {
  if (run.issues.length < MAX_KEPT_ISSUES) run.issues.push(found);
  run.emit({ type: 'issue', issue: found });
}

function issueOf(result: EntryResult): BatchIssue['kind'] | undefined {
  switch (result.outcome) {
    case 'invalid':
      return 'invalid-line';
    case 'failed':
      return 'failed';
    case 'timed-out':
      return 'timed-out';
    case 'passthrough':
      return 'passthrough';
    case 'compressed':
    case 'under-target':
    case 'not-compressible':
      return result.summaryErrors === undefined ? undefined : 'summary-error';
  }
}

function report(
  file: InputFile,
  status: FileReport['status'],
  extra: Partial<FileReport> & { counts?: AggregateCounts },
): FileReport {
  return {
    file: file.input,
    output: file.output,
    status,
    entries: 0,
    available: 0,
    invalidLines: 0,
    counts: emptyAggregate(),
    ...extra,
  };
}

/**
 * Hands every entry of a file to the dispatcher and returns once the last one is handed over; `done` settles
 * when the file is written.
 */
async function processFile(
  run: RunState,
  prepared: PreparedFile,
  dispatcher: EntryDispatcher,
): Promise<{ readonly done: Promise<FileReport> }> {
  const { file } = prepared;
  const dryRun = run.options.config.dryRun === true;
  run.emit({
    type: 'file-start',
    file: file.input,
    entries: prepared.entries.length,
    format: prepared.format,
  });
  const sink = dryRun ? undefined : await openFileSink(prepared);
  const totals = entryOrderCounts();
  const dispatched = await dispatcher.dispatch(prepared, async (index, result) => {
    totals.record(index, result);
    const kind = issueOf(result);
    if (kind !== undefined) {
      const message = result.message ?? result.summaryErrors?.join('; ') ?? '';
      issue(run, { file: file.input, line: prepared.entries[index]?.line ?? index + 1, kind, message });
    }
    run.tracker.record(result.outcome, result.metrics?.tokensSaved ?? 0);
    run.emit({ type: 'progress', progress: run.tracker.snapshot() });
    await sink?.put(index, result.text);
  });
  const base = { format: prepared.format, entries: prepared.entries.length, available: prepared.available };
  const done = dispatched.done.then(
    async () => {
      const { counts, invalidLines } = totals.finish();
      if (sink === undefined) return report(file, 'planned', { ...base, counts, invalidLines });
      await sink.finish();
      await recordFinished(run, file, prepared, counts, invalidLines);
      await dispatcher.written?.(prepared);
      return report(file, 'written', { ...base, counts, invalidLines });
    },
    async (error: unknown) => {
      await sink?.abort();
      return report(file, 'error', { ...base, ...failureOf(error) });
    },
  );
  return { done };
}

async function recordFinished(
  run: RunState,
  file: InputFile,
  prepared: PreparedFile,
  counts: AggregateCounts,
  invalidLines: number,
): Promise<void> {
  const identity = await identityOf(file.input, prepared.bytes);
  const now = run.options.now ?? Date.now;
  const record: FinishedFile = {
    input: file.input,
    ...identity,
    fingerprint: run.fingerprint,
    finishedAt: new Date(now()).toISOString(),
    counts,
    invalidLines,
  };
  run.saving = run.saving.then(async () => {
    run.resume = { version: 1, files: { ...run.resume.files, [file.name]: record } };
    await saveResumeState(run.outputDir, run.resume);
  });
  await run.saving;
}

async function createDispatcher(
  options: RunTrajectoriesOptions,
  setup: DispatcherSetup,
): Promise<EntryDispatcher> {
  if (options.dispatcher !== undefined && options.config.dryRun !== true) return options.dispatcher(setup);
  const executor = await createEntryExecutor({
    config: options.config,
    timeoutMs: setup.timeoutMs,
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.runtime === undefined ? {} : { runtime: options.runtime }),
    ...(options.timers === undefined ? {} : { timers: options.timers }),
    ...(options.workerScript === undefined ? {} : { workerScript: options.workerScript }),
  });
  return createLocalDispatcher(executor, options.concurrency ?? 50);
}

/**
 * Compresses every trajectory of the inputs: one output file per input, same name, entries in their original
 * order, written atomically, plus the aggregate metrics file. Entries run concurrently (at most `concurrency`
 * in flight, on this thread or spread over worker threads), each under its own timeout; a timed-out or failed
 * entry is kept in its original form and counted, an unreadable line is reported with file and line and carried
 * through. Files an earlier run finished with the same settings are skipped (and their totals reused). Progress
 * and problems are reported as events; nothing is printed. Throws only for bad inputs or options.
 */
export async function runTrajectories(options: RunTrajectoriesOptions): Promise<TrajectoryRunReport> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const emit = options.onEvent ?? (() => undefined);
  const config = options.config;
  // Every entry runs with these settings: ones that cannot work fail the run before anything is written, rather
  // than each entry failing alike and being copied through.
  resolveTrajectorySettings(config.settings);
  const dryRun = config.dryRun === true;
  const { outputDir, files } = await resolveInputFiles(options.inputs, {
    cwd: options.cwd,
    ...(options.out === undefined ? {} : { out: options.out }),
    ...(options.suffix === undefined ? {} : { suffix: options.suffix }),
    reserved: [options.metricsFile ?? 'compression_metrics.json', STATE_FILE],
  });
  if (!dryRun) await mkdir(outputDir, { recursive: true });
  const sample: SampleOptions | undefined =
    options.samplePercent === undefined
      ? undefined
      : { percent: options.samplePercent, seed: options.seed ?? 42 };
  const fingerprint = settingsFingerprint({
    settings: config.settings,
    tokenizer: config.tokenizer,
    model:
      config.model === undefined
        ? undefined
        : { spec: config.model.spec, baseUrl: config.model.baseUrl, temperature: config.model.temperature },
    perTrajectoryMetrics: config.perTrajectoryMetrics,
    sample,
    format: options.format,
  });
  const resumeOn = options.resume !== false && !dryRun;
  const resume: ResumeState = resumeOn ? await loadResumeState(outputDir) : { version: 1, files: {} };
  emit({ type: 'start', outputDir, files: files.length, dryRun });
  const slots: (FileReport | Promise<FileReport> | undefined)[] = [];
  const todo: { index: number; file: InputFile }[] = [];
  let total = 0;
  for (const [index, file] of files.entries()) {
    const record = resumeOn ? await finishedRecord(resume, file, fingerprint) : undefined;
    if (record !== undefined) {
      const done = report(file, 'resumed', { counts: record.counts, invalidLines: record.invalidLines });
      slots[index] = done;
      emit({ type: 'file-resumed', report: done });
      continue;
    }
    try {
      total += (await prepareFile(file, options.format, sample)).entries.length;
      todo.push({ index, file });
    } catch (error) {
      slots[index] = report(file, 'error', failureOf(error));
      emit({ type: 'file-error', file: file.input, ...failureOf(error) });
    }
  }
  const run: RunState = {
    options,
    emit,
    issues: [],
    tracker: createProgressTracker(total, now),
    fingerprint,
    resume,
    saving: Promise.resolve(),
    outputDir,
  };
  const timeoutMs = options.timeoutMs ?? 300_000;
  const dispatcher =
    todo.length === 0
      ? undefined
      : await createDispatcher(options, {
          config,
          timeoutMs,
          fingerprint,
          notice: (message) => emit({ type: 'notice', message }),
        });
  try {
    for (const { index, file } of todo) {
      try {
        const prepared = await prepareFile(file, options.format, sample);
        slots[index] = (await processFile(run, prepared, dispatcher as EntryDispatcher)).done;
      } catch (error) {
        slots[index] = report(file, 'error', failureOf(error));
      }
    }
    const reports = await Promise.all(slots.map((slot) => slot as FileReport | Promise<FileReport>));
    for (const done of reports) {
      if (done.status === 'written' || done.status === 'planned') emit({ type: 'file-done', report: done });
      if (done.status === 'error' && todo.some((item) => item.file.input === done.file)) {
        emit({
          type: 'file-error',
          file: done.file,
          message: done.message ?? 'failed',
          ...(done.code === undefined ? {} : { code: done.code }),
        });
      }
    }
    return await finishRun(run, reports, startedAt, dryRun);
  } finally {
    await dispatcher?.close();
  }
}

async function finishRun(
  run: RunState,
  reports: readonly FileReport[],
  startedAt: number,
  dryRun: boolean,
): Promise<TrajectoryRunReport> {
  const now = run.options.now ?? Date.now;
  const ended = now();
  let counts = emptyAggregate();
  let invalidLines = 0;
  for (const done of reports) {
    counts = mergeAggregates(counts, done.counts);
    invalidLines += done.invalidLines;
  }
  const metrics: JsonObject = {
    ...aggregateMetricsJson(counts, {
      startTime: new Date(startedAt).toISOString(),
      endTime: new Date(ended).toISOString(),
      durationSeconds: (ended - startedAt) / 1000,
    }),
    files: reports.map((done) => ({
      input: done.file,
      output: done.output,
      status: done.status,
      entries: done.entries,
      compressed: done.counts.compressed,
      failed: done.counts.failed,
      invalid_lines: done.invalidLines,
      ...(done.message === undefined ? {} : { error: done.message }),
      ...(done.code === undefined ? {} : { error_code: done.code }),
    })),
    invalid_lines: invalidLines,
  };
  const metricsPath = dryRun
    ? undefined
    : join(run.outputDir, run.options.metricsFile ?? 'compression_metrics.json');
  if (metricsPath !== undefined) await writeFileAtomic(metricsPath, `${JSON.stringify(metrics, null, 2)}\n`);
  const result: TrajectoryRunReport = {
    outputDir: run.outputDir,
    dryRun,
    files: reports,
    counts,
    invalidLines,
    metrics,
    ...(metricsPath === undefined ? {} : { metricsPath }),
    issues: run.issues,
    progress: run.tracker.snapshot(),
  };
  run.emit({ type: 'done', report: result });
  return result;
}
