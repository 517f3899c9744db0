import type { CompactionReport } from '../engines/compaction-report.js';
import type { Transcript } from '../model/transcript.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** One compaction to show: the transcript before, the transcript after, and the engine's report. */
export interface ReportTranscript {
  readonly before: Transcript;
  readonly after: Transcript;
  readonly report: CompactionReport;
  /** Section heading. @default `Transcript #<n>` */
  readonly title?: string;
}

/** Everything {@link renderReportHtml} needs. */
export interface ReportInput {
  /** One entry per transcript of the file (dataset files hold many). */
  readonly transcripts: readonly ReportTranscript[];
  /** Page title. @default 'condense report' */
  readonly title?: string;
  /** The file the transcripts came from, shown under the title. */
  readonly sourceName?: string;
  /** Counts the tokens the bars show. @default createRoughCounter() */
  readonly counter?: TokenCounter;
  /** Sections rendered at most; the rest are counted and left out. @default 20 */
  readonly maxTranscripts?: number;
  /**
   * How many transcripts the source holds, when the caller compacted only the first ones (a dataset of
   * thousands need not be compacted to show twenty). @default transcripts.length
   */
  readonly totalTranscripts?: number;
}
