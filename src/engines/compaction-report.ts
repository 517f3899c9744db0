import type { SummarySource } from '../summarizer/summarizer.js';
import type { CompactionProvenance } from './provenance.js';

/** Token figures before or after compaction: always the rough estimate, and the exact count when configured. */
export interface TokenFigures {
  readonly rough: number;
  readonly exact?: number;
  /** Name of the exact counter. */
  readonly counter?: string;
}

/**
 * What the deterministic pruning phase did to the messages the output keeps (the outputs of folded messages go
 * into the checkpoint, not into digests), as the per-message provenance counts it.
 */
export interface PruningReport {
  /** Tool outputs replaced by a reference to an identical copy. */
  readonly deduplicated: number;
  /** Old tool outputs replaced by a one-line digest. */
  readonly digested: number;
  /** Tool-call argument objects whose long string leaves were shortened. */
  readonly argumentsShrunk: number;
  /** Image payloads replaced by a placeholder. */
  readonly imagesStripped: number;
}

/** Where the kept head ends and the kept tail starts, as indices into the input transcript. */
export interface Boundaries {
  /** First message index after the protected head. */
  readonly headEnd: number;
  /** First message index of the protected tail. */
  readonly tailStart: number;
}

/** The checkpoint written by this pass, if any. */
export interface SummaryReport {
  readonly source: SummarySource | 'none';
  readonly model?: string;
  /** Summarizer calls made (chunked folds make several). */
  readonly calls: number;
  /** Tokens of the checkpoint message (rough). */
  readonly tokens: number;
  /** True when an earlier checkpoint was updated rather than a new one written. */
  readonly updatedPrevious: boolean;
}

/** What the rules engine did, rule by rule. */
export interface RuleCounts {
  /** Succeeded tool call/result pairs collapsed into one-line records (rule 1). */
  readonly collapsedPairs: number;
  /** Tool outputs cut to their first and last lines (rule 2). */
  readonly truncatedOutputs: number;
  /** System messages replaced by a one-line marker (rule 3). */
  readonly droppedSystem: number;
  /** Assistant messages folded into a later one (rule 4). */
  readonly mergedAssistant: number;
  /** Succeeded calls kept as real calls because collapsing them would put two assistant messages in a row. */
  readonly heldBack: number;
  /** Distinct references written (each restorable and recallable). */
  readonly references: number;
}

/**
 * What every engine reports, whatever it does: figures before and after, what was removed and why, failures and
 * notes. Nothing is dropped silently: the counts say what was removed and why.
 */
export interface CommonReportFields {
  readonly engine: string;
  readonly tokensBefore: TokenFigures;
  readonly tokensAfter: TokenFigures;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  /** Messages removed from the transcript (folded into the checkpoint or collapsed). */
  readonly dropped: number;
  /** Failures met on the way (summarizer errors, fallbacks), secrets redacted. */
  readonly errors: readonly string[];
  /** Rough tokens saved, and as a percentage of the input. Negative when the output is bigger. */
  readonly savings: { readonly tokens: number; readonly percent: number };
  /** False when the pass changed nothing or could not shrink the transcript. */
  readonly madeProgress: boolean;
  /** True when a failure left the transcript unchanged on purpose (auth/quota errors, abort policy). */
  readonly aborted: boolean;
  /** Why nothing happened, when nothing happened. */
  readonly reason?: string;
  /** Free-form observations for the user (e.g. "still 12 % above the target"). */
  readonly notes: readonly string[];
  /** Leading messages of the output that are the input's own messages, byte-identical on the wire. */
  readonly unchangedPrefix?: number;
  /**
   * What became of every message, one entry per output and per input message (see {@link CompactionProvenance}).
   * Both built-in engines fill it; readers that find none (a third-party engine) re-derive it.
   */
  readonly provenance?: CompactionProvenance;
}

/** What the compressor adds: its partition, its pruning and its checkpoint. */
export interface CompressorReportDetails {
  /** Absent when the pass did not partition the transcript (no-op, rules engine). */
  readonly boundaries?: Boundaries;
  readonly pruning: PruningReport;
  readonly summary: SummaryReport;
}

/** What the rules engine adds. */
export interface RulesReportDetails {
  /** Per-rule counts, from the rules engine. */
  readonly rules?: RuleCounts;
}

/**
 * Everything a compaction pass reports: the common fields and each engine's details. `pruning` and `summary`
 * are in every report, neutral ({@link NO_COMPRESSOR_DETAILS}) for an engine that neither prunes nor summarizes,
 * because the CLI's `--json`, the proxy's `x-condense` header and existing readers rely on one shape.
 */
export interface CompactionReport extends CommonReportFields, CompressorReportDetails, RulesReportDetails {}

/** The compressor's fields in the report of an engine (or a pass) that neither pruned nor summarized. */
export const NO_COMPRESSOR_DETAILS: Pick<CompressorReportDetails, 'pruning' | 'summary'> = {
  pruning: { deduplicated: 0, digested: 0, argumentsShrunk: 0, imagesStripped: 0 },
  summary: { source: 'none', calls: 0, tokens: 0, updatedPrevious: false },
};
