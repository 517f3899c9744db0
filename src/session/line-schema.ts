import type { JsonObject, JsonValue } from '../model/json.js';

/**
 * condense's own session log: JSONL, one self-describing object per line, append-only. Every line starts with
 * `schema` and `type`; chain lines then carry `uuid` and `parentUuid` before any nested value, so the loader's
 * byte pre-filter proves them from the line's first bytes. The schema is versioned: readers accept any
 * `condense.session/<n>` line and ignore keys they do not know; a new major only comes with a new number.
 */
export const SESSION_SCHEMA = 'condense.session/1';

/** The prefix every line's `schema` value starts with, whatever its version. */
export const SESSION_SCHEMA_PREFIX = 'condense.session/';

/** First line: what the log is. */
export interface SessionHeaderLine {
  readonly schema: string;
  readonly type: 'session';
  readonly sessionId: string;
  readonly timestamp: string;
  readonly metadata?: JsonObject;
}

/** One message of the conversation: the transcript model's message without its origin. */
export interface SessionMessageLine {
  readonly schema: string;
  readonly type: 'message';
  readonly uuid: string;
  readonly parentUuid: string | null;
  readonly timestamp: string;
  readonly message: JsonObject;
}

/**
 * A compaction boundary: a new root whose `logicalParentUuid` is the last message before compaction. The
 * checkpoint (`anchorUuid`) is the next message line, parented to the boundary. `preserved.head` and
 * `preserved.tail` name the earlier messages kept verbatim before and after the checkpoint, so a replay of the
 * model's context splices them around it, and a replay of the whole history simply walks past the boundary.
 */
export interface SessionCompactionLine {
  readonly schema: string;
  readonly type: 'compaction';
  readonly uuid: string;
  readonly parentUuid: null;
  readonly logicalParentUuid: string | null;
  readonly anchorUuid: string;
  readonly timestamp: string;
  readonly preserved: { readonly head: readonly string[]; readonly tail: readonly string[] };
  readonly metadata: JsonObject;
}

/** A side payload kept with a message (hook output, file snapshot…); never part of the chain. */
export interface SessionAttachmentLine {
  readonly schema: string;
  readonly type: 'attachment';
  readonly messageUuid: string | null;
  readonly timestamp: string;
  readonly attachment: JsonValue;
}

/** A session title; the latest one wins. */
export interface SessionTitleLine {
  readonly schema: string;
  readonly type: 'title';
  readonly title: string;
  readonly leafUuid: string | null;
  readonly timestamp: string;
}

/** Every line of a condense session log. */
export type SessionLine =
  | SessionHeaderLine
  | SessionMessageLine
  | SessionCompactionLine
  | SessionAttachmentLine
  | SessionTitleLine;
