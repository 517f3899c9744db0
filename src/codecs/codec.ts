import type { FormatName } from '../model/format.js';
import type { Transcript } from '../model/transcript.js';

/** How serious a decode issue is: `error` means something was dropped or could not be understood. */
export type DecodeIssueSeverity = 'error' | 'warning';

/** Stable codes of decode issues. */
export type DecodeIssueCode =
  | 'invalid-json'
  | 'invalid-shape'
  | 'unknown-role'
  | 'unknown-record'
  | 'unknown-block'
  | 'invalid-arguments'
  | 'orphan-result'
  | 'missing-result'
  | 'truncated-line'
  /** JSON nested deeper than condense reads (see `json-depth.ts`). */
  | 'too-deep';

/** Something a codec noticed while decoding, reported as data instead of thrown. */
export interface DecodeIssue {
  readonly code: DecodeIssueCode;
  readonly severity: DecodeIssueSeverity;
  readonly message: string;
  /** Path inside the decoded value, e.g. `['messages', 3, 'content', 0]`. */
  readonly path: readonly (string | number)[];
  /** 1-based line in a JSONL file, when known. */
  readonly line?: number;
}

/** A decoded value plus everything worth reporting about it. Decoding never throws on a drifting record. */
export interface DecodeResult<TValue> {
  readonly value: TValue;
  readonly issues: readonly DecodeIssue[];
}

/** What a wire format can express; shared code asks these instead of branching on format names. */
export interface CodecCapabilities {
  /** Reasoning parts survive encoding (otherwise they are dropped on encode, with the count reported). */
  readonly reasoning: boolean;
  readonly images: boolean;
  /** Several tool results can travel in one message. */
  readonly groupedToolResults: boolean;
  /** The provider rejects two consecutive messages of the same role (Anthropic). */
  readonly strictAlternation: boolean;
  /** Where the system prompt lives. */
  readonly systemPrompt: 'message' | 'top-level';
}

/** A wire format: decode to the transcript model and encode back. */
export interface Codec<TWire = unknown> {
  readonly format: FormatName;
  readonly capabilities: CodecCapabilities;
  readonly fileLayout: FileLayout;
  /**
   * Decodes one transcript's wire value: what one JSON document or JSONL line holds (`entries` layout), or the
   * array of parsed records of a whole file (`records` layout).
   */
  decode(wire: unknown): DecodeResult<Transcript>;
  /** Encodes a transcript; messages whose origin is intact are emitted exactly as they were read. */
  encode(transcript: Transcript): TWire;
  /**
   * How sure the codec is that `wire` is one transcript of its format (for `records` codecs: one record):
   * 0 = not this format, 1 = plausible (shapes several formats share), 2 = distinctive features present.
   */
  detect(wire: unknown): DetectScore;
}

/**
 * How a file of this format holds transcripts. `entries`: a JSON document or each JSONL line is one transcript
 * (or a JSON array of them). `records`: every JSONL line is a record and the whole file is one transcript.
 */
export type FileLayout = 'entries' | 'records';

/** Confidence of format detection; see {@link Codec.detect}. */
export type DetectScore = 0 | 1 | 2;
