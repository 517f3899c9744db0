import type { ErrorCode } from '../errors/codes.js';
import type { FormatName } from '../model/format.js';
import type { JsonObject } from '../model/json.js';
import type { AggregateCounts } from '../trajectory/metrics-aggregate.js';
import type { TrajectoryProgress } from './progress.js';

/** Something worth telling about one entry: where it is and what went wrong. */
export interface BatchIssue {
  readonly file: string;
  /** 1-based line (JSONL) or position (JSON array). */
  readonly line: number;
  readonly kind: 'invalid-line' | 'failed' | 'timed-out' | 'passthrough' | 'summary-error';
  readonly message: string;
}

/** What happened to one input file. */
export interface FileReport {
  readonly file: string;
  readonly output: string;
  /** `written`: output written this run; `resumed`: finished by an earlier run; `planned`: dry run. */
  readonly status: 'written' | 'resumed' | 'planned' | 'error';
  readonly format?: FormatName;
  /** Entries processed (the sample when sampling). */
  readonly entries: number;
  /** Entries in the file before sampling. */
  readonly available: number;
  readonly counts: AggregateCounts;
  readonly invalidLines: number;
  /** What went wrong (status `error`), with what to do about it when known. */
  readonly message?: string;
  /** The error's code (status `error`), when condense raised it. */
  readonly code?: ErrorCode;
}

/**
 * Events of a run, in order. The runner writes nothing to the terminal: the CLI renders these (a progress bar on
 * a terminal, plain lines otherwise), a library user does what it likes with them.
 */
export type BatchEvent =
  | { readonly type: 'start'; readonly outputDir: string; readonly files: number; readonly dryRun: boolean }
  | {
      readonly type: 'file-start';
      readonly file: string;
      readonly entries: number;
      readonly format: FormatName;
    }
  | { readonly type: 'file-done'; readonly report: FileReport }
  | { readonly type: 'file-resumed'; readonly report: FileReport }
  | {
      readonly type: 'file-error';
      readonly file: string;
      readonly message: string;
      readonly code?: ErrorCode;
    }
  | { readonly type: 'issue'; readonly issue: BatchIssue }
  | { readonly type: 'progress'; readonly progress: TrajectoryProgress }
  /** Something about where the work runs (a queue job retried entry by entry, Redis unreachable…). */
  | { readonly type: 'notice'; readonly message: string }
  | { readonly type: 'done'; readonly report: TrajectoryRunReport };

/** What a run did. */
export interface TrajectoryRunReport {
  readonly outputDir: string;
  readonly dryRun: boolean;
  readonly files: readonly FileReport[];
  /** Totals over every file, those finished by an earlier run included. */
  readonly counts: AggregateCounts;
  readonly invalidLines: number;
  /** The aggregate metrics (Hermes' blocks plus `files`). */
  readonly metrics: JsonObject;
  /** Where the aggregate metrics were written (absent in a dry run). */
  readonly metricsPath?: string;
  readonly issues: readonly BatchIssue[];
  readonly progress: TrajectoryProgress;
}
