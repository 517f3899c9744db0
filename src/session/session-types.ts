import type { DecodeIssueCode } from '../codecs/codec.js';
import type { JsonObject } from '../model/json.js';
import type { Transcript } from '../model/transcript.js';

/** The session log formats condense loads: Claude Code project files, Codex CLI rollouts and condense's own log. */
export type SessionFormat = 'claude-code' | 'condense' | 'codex';

/**
 * Which conversation to expose. `full`: the whole history of the active branch, across compaction boundaries
 * (each boundary marked). `context`: what the model sees now — from the last boundary on, with its preserved
 * messages spliced around the checkpoint.
 */
export type SessionView = 'full' | 'context';

/** Options of `loadSession`. */
export interface LoadSessionOptions {
  /**
   * The leaf to walk back from: a record uuid or a unique prefix of one (as `condense replay` prints them).
   * @default the latest `last-prompt` leaf, else the newest user/assistant record of the main chain
   */
  readonly leaf?: string;
  /** @default 'full' */
  readonly view?: SessionView;
  /**
   * Find every line's `uuid`/`parentUuid` from its bytes and parse only the lines the chain needs. Turning it
   * off parses every line first; the result is the same.
   * @default true
   */
  readonly prefilter?: boolean;
  /** Named in issues and errors. @default '<session>' */
  readonly fileName?: string;
  /** Session titles of the whole project directory keyed by leaf uuid (Claude Code `summary` records). */
  readonly titles?: ReadonlyMap<string, string>;
}

/** How the leaf was chosen. */
export type LeafReason = 'option' | 'last-prompt' | 'newest-message';

/** The record the active chain ends at. */
export interface SessionLeaf {
  readonly uuid: string;
  readonly line: number;
  readonly reason: LeafReason;
}

/** One record of the active chain (messages and the progress/system records between them). */
export interface ChainRecord {
  readonly uuid: string;
  readonly line: number;
  readonly type: string | undefined;
}

/** How the chain went past a compaction boundary. */
export type BoundaryLink =
  /** Continued through the boundary's `logicalParentUuid`. */
  | 'crossed'
  /** The logical parent is not in the file; continued from the newest message written before the boundary. */
  | 'resumed'
  /** The logical parent is not in the file and nothing precedes the boundary: the history starts here. */
  | 'missing'
  /** The boundary starts the view (`context` view, or a boundary without a logical parent). */
  | 'start';

/** A compaction boundary on the active chain. */
export interface SessionBoundary {
  readonly uuid: string;
  readonly line: number;
  /** `compact_boundary` (Claude Code), `compaction` (condense) or `codex-compaction` (a Codex `compacted` line). */
  readonly kind: string;
  readonly trigger: string | undefined;
  readonly preTokens: number | undefined;
  readonly logicalParentUuid: string | undefined;
  readonly link: BoundaryLink;
  /** Index in `transcript.messages` of the checkpoint (the summary that follows the boundary). */
  readonly messageIndex: number;
  /** Uuids kept verbatim around the checkpoint (condense head/tail; Claude Code `preservedSegment` head and tail). */
  readonly preserved: { readonly before: readonly string[]; readonly after: readonly string[] };
  /** The boundary's metadata as written (`compactMetadata`, condense `metadata`). */
  readonly metadata: JsonObject | undefined;
  readonly timestamp: string | undefined;
}

/** A branch of records no longer on the active chain (rewind, retry, edit-and-resend, `/clear`). */
export interface DeadBranch {
  /** The live record it forks off; `undefined` for a tree of its own (`/clear`, a cut link). */
  readonly forkUuid: string | undefined;
  readonly forkLine: number | undefined;
  readonly firstUuid: string;
  readonly firstLine: number;
  readonly lastLine: number;
  /** The branch's newest user/assistant record: pass it as `leaf` to replay the branch. */
  readonly leafUuid: string;
  readonly records: number;
  readonly messages: number;
  readonly bytes: number;
}

/** Dead branches of a session: only branches holding at least one user/assistant record count. */
export interface DeadBranchReport {
  readonly count: number;
  readonly branches: readonly DeadBranch[];
  /** Records in dead branches with messages. */
  readonly records: number;
  /** Off-chain records without any message (hook/progress leftovers after the leaf). */
  readonly sideRecords: number;
  /** Sidechain records found in a main session file. */
  readonly sidechainRecords: number;
}

/** Where a title came from. */
export type TitleSource = 'summary' | 'custom-title' | 'ai-title' | 'condense';

/** A title record found in the file. Claude Code `summary` titles usually name leaves of *other* sessions. */
export interface SessionTitle {
  readonly title: string;
  readonly leafUuid: string | undefined;
  readonly line: number;
  readonly source: TitleSource;
}

/** Stable codes of session issues (plus the codec's decode issue codes). */
export type SessionIssueCode =
  | 'empty-session'
  | 'no-messages'
  | 'invalid-json'
  | 'truncated-line'
  | 'missing-parent'
  | 'cycle'
  | 'duplicate-uuid'
  | 'boundary-link-missing'
  | 'invalid-boundary'
  | 'unknown-record'
  | 'invalid-record'
  | 'prefilter-fallback'
  /** Codex: a `thread_rolled_back` event took turns off the conversation. */
  | 'rolled-back';

/** Something worth reporting about a session file; loading never throws on damaged content. */
export interface SessionIssue {
  readonly code: SessionIssueCode | DecodeIssueCode;
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  /** 1-based line in the file. */
  readonly line?: number;
  readonly uuid?: string;
}

/** What loading cost and found, in lines and bytes. */
export interface SessionStats {
  readonly bytes: number;
  /** Non-blank lines. */
  readonly lines: number;
  readonly parsedLines: number;
  readonly parsedBytes: number;
  /** Records on the active chain (messages and the records between them) plus re-attached results. */
  readonly liveLines: number;
  readonly deadLines: number;
  readonly deadBytes: number;
  /** `used`: bytes decided; `off`: every line parsed; `fallback`: the bytes misled, every line was parsed. */
  readonly prefilter: 'used' | 'off' | 'fallback';
}

/**
 * A prompt the person typed while the agent was busy (a Claude Code `queue-operation` enqueue) that no message of
 * the conversation carries. `pending`: still queued when the log ends; `dequeued`: taken from the queue, yet no
 * message holds it; `removed`: withdrawn from the queue.
 */
export interface QueuedPrompt {
  readonly text: string;
  /** 1-based line of the enqueue record. */
  readonly line: number;
  readonly timestamp?: string;
  readonly status: 'pending' | 'dequeued' | 'removed';
  /** How many messages of the transcript were written before it: it belongs between those and the next. */
  readonly afterMessage: number;
}

/** A loaded session: the active conversation as a transcript and everything around it. */
export interface LoadedSession {
  readonly format: SessionFormat;
  readonly sessionId: string | undefined;
  readonly view: SessionView;
  readonly transcript: Transcript;
  readonly leaf: SessionLeaf | undefined;
  /** The records of the chain, root first (without re-attached side results). */
  readonly chain: readonly ChainRecord[];
  readonly boundaries: readonly SessionBoundary[];
  readonly deadBranches: DeadBranchReport;
  /** The session's own title, when one resolves. */
  readonly title: string | undefined;
  readonly titles: readonly SessionTitle[];
  readonly lastPrompt: string | undefined;
  /** Prompts found only in the prompt queue, never in a message (see {@link QueuedPrompt}). */
  readonly queuedPrompts: readonly QueuedPrompt[];
  /** Newest timestamp of the chain's messages. */
  readonly lastActivity: string | undefined;
  /** Model of the newest assistant message, when the format records it. */
  readonly model: string | undefined;
  readonly issues: readonly SessionIssue[];
  readonly stats: SessionStats;
  /** Every record uuid in the file (for title lookups across a project). */
  readonly recordUuids: ReadonlySet<string>;
}
