import type { FormatName } from './format.js';
import type { JsonObject } from './json.js';
import type { Message } from './message.js';

/**
 * The wire value a transcript was decoded from. While `messages` is still the very array decoded from it, the
 * codec may return `wire` itself on encode, so an untouched entry is written back exactly.
 */
export interface TranscriptOrigin {
  readonly format: FormatName;
  readonly wire: unknown;
  readonly messages: readonly Message[];
}

/** Transcript-level data: where it came from and what the codec needs to rebuild its envelope. */
export interface TranscriptMeta {
  readonly origin?: TranscriptOrigin;
  /** The format the transcript was decoded from. */
  readonly format?: FormatName;
  /** Codec-owned envelope data (dataset wrappers, top-level fields, non-message records), keyed by format. */
  readonly codec?: Readonly<Partial<Record<FormatName, JsonObject>>>;
}

/** An ordered conversation in condense's own model: what every codec decodes to and encodes from. */
export interface Transcript {
  readonly messages: readonly Message[];
  readonly meta?: TranscriptMeta;
}
