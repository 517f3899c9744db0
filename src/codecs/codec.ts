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

/**
 * What a wire format can express, so shared code (the conversion loss report, inspect) asks instead of branching
 * on format names. Each field says what the codec's encoder does with a message from another format; the loss
 * report (`conversionLosses`) is computed from these alone, and a corpus suite checks they tell the truth.
 */
export interface CodecCapabilities {
  /** Reasoning survives encoding in some form (a reasoning slot, or `<think>` text). */
  readonly reasoning: boolean;
  /**
   * How reasoning is written: `native` (the format's own reasoning slot), `signed` (a thinking block only for
   * reasoning carrying a provider signature, other reasoning as `<think>` text: Anthropic verifies thinking), or
   * `text` (always `<think>` text: the wire has no reasoning slot).
   */
  readonly reasoningForm: 'native' | 'signed' | 'text';
  /** Provider signatures of reasoning survive. */
  readonly reasoningSignatures: boolean;
  /** Encrypted reasoning (data without text, e.g. Anthropic `redacted_thinking`) survives. */
  readonly encryptedReasoning: boolean;
  readonly images: boolean;
  /** Images inside tool results survive (else they become a placeholder text). */
  readonly toolResultImages: boolean;
  /** Tool results carry an error flag; otherwise a failed result is marked in its text (`[tool error] `). */
  readonly toolErrors: boolean;
  /** Tool call ids survive (ShareGPT pairs calls and results by position and writes none). */
  readonly toolCallIds: boolean;
  /** Tool call ids must match this pattern and be unique in a transcript; others are rewritten consistently. */
  readonly toolIdPattern?: RegExp;
  /** Several tool results can travel in one message. */
  readonly groupedToolResults: boolean;
  /** The provider rejects two consecutive messages of the same role (Anthropic). */
  readonly strictAlternation: boolean;
  /**
   * Where the system prompt lives: a message, a top-level field (a system message after the conversation started
   * is sent as user text), or `none`: the format keeps no system prompt the model is sent (Claude Code).
   */
  readonly systemPrompt: 'message' | 'top-level' | 'none';
  /** Message timestamps survive. */
  readonly timestamps: boolean;
  /** Opaque part kinds written as they are whatever format they came from; others become a placeholder text. */
  readonly opaqueKinds: ReadonlySet<string>;
  /**
   * Tool input must be a JSON object (Anthropic): argument text that is not one is carried wrapped as
   * `{"_raw_arguments": text}`, and reading it back unwraps it. Absent means any argument text is carried as is.
   */
  readonly objectArguments?: boolean;
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
   * The conversation as the agent has it now, for a format whose harness compacts in place and keeps the history
   * before (Claude Code): only what follows the last compaction, the rest left in the file as it is. Undefined
   * when the transcript holds no such compaction or the format has none.
   */
  contextView?(transcript: Transcript): Transcript | undefined;
  /**
   * How sure the codec is that `wire` is one transcript of its format (for `records` codecs: one record):
   * 0 = not this format, 1 = plausible (shapes several formats share), 2 = distinctive features present.
   */
  detect(wire: unknown): DetectScore;
  /**
   * Fields of this format's envelope and dialect that a transcript decoded from it carries only in codec meta
   * (dataset keys, per-message extra keys, Claude Code record fields…), by name with a count: what a conversion to
   * another format's canonical shape leaves behind.
   */
  dialectFields?(transcript: Transcript): Readonly<Record<string, number>>;
}

/**
 * How a file of this format holds transcripts. `entries`: a JSON document or each JSONL line is one transcript
 * (or a JSON array of them). `records`: every JSONL line is a record and the whole file is one transcript.
 */
export type FileLayout = 'entries' | 'records';

/** Confidence of format detection; see {@link Codec.detect}. */
export type DetectScore = 0 | 1 | 2;
