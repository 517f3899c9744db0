import type { FormatName } from './format.js';
import type { JsonObject } from './json.js';
import type { Part } from './part.js';
import type { Role } from './role.js';

/**
 * The wire value a message was decoded from. A codec re-emits `wire` verbatim while the message's `parts`
 * is still the very array decoded from it, so untouched messages stay byte-identical (provider prompt caches
 * depend on it). Any transform that changes a message builds a new `parts` array, which retires the origin.
 */
export interface MessageOrigin {
  readonly format: FormatName;
  readonly wire: unknown;
  readonly parts: readonly Part[];
}

/** Per-message data that travels with a message without being part of what the model reads. */
export interface MessageMeta {
  readonly origin?: MessageOrigin;
  /** Codec-owned data needed to re-encode exactly (envelope fields, grouping), keyed by format. */
  readonly codec?: Readonly<Partial<Record<FormatName, JsonObject>>>;
  /** Set on messages condense wrote itself (checkpoints, markers), for reports and later passes. */
  readonly condense?: JsonObject;
  /**
   * Set by a codec when its wire format marks a user-role message as written by the harness rather than the
   * person (Claude Code `isMeta`: skill bodies, hook context, command caveats). Such a message is never taken
   * for the person's request.
   */
  readonly injected?: boolean;
}

/** One turn of a transcript. */
export interface Message {
  readonly role: Role;
  readonly parts: readonly Part[];
  /** A stable id when the wire format has one (Claude Code `uuid`). */
  readonly id?: string;
  readonly meta?: MessageMeta;
}
