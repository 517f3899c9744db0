import type { CompactionReport } from '../engines/compaction-report.js';
import type { Message } from '../model/message.js';
import { checkpointOf, hasUserContentBesidesCheckpoint } from '../transforms/checkpoint-text.js';
import { findLatestUserRequest } from '../transforms/find-latest-user-request.js';
import { alignMessages } from './align-messages.js';
import { type ChangeCounts, diffMessage, leadingCheckpoint, noChanges } from './message-changes.js';

/** What happened to a message, as its badge says. */
export type MessageStatus =
  | 'kept'
  | 'pruned'
  | 'folded'
  | 'collapsed'
  | 'truncated'
  | 'dropped'
  | 'merged'
  | 'new'
  | 'changed';

/** Counts of one row, summed over a transcript to compare with the report's figures. */
export interface RowCounts extends ChangeCounts {
  /** A message folded into the checkpoint (the compressor's middle). */
  folded: number;
  /** An assistant message folded into a later one (rules). */
  mergedAssistant: number;
  /** A new checkpoint message, or a checkpoint merged in front of a kept message. */
  checkpoints: number;
}

/** One message of one side, with its badge. */
export interface ClassifiedMessage {
  readonly side: 'before' | 'after';
  readonly index: number;
  readonly message: Message;
  readonly status: MessageStatus;
  /** Why, in a few words. */
  readonly reason: string;
  /** The message on the other side it is, or was rewritten into (-1 when none). */
  readonly counterpart: number;
  /** Counted on one side only (the after side for rewrites), so sums are not doubled. */
  readonly counts: RowCounts;
}

/** Every message of both sides, classified. */
export interface Classification {
  readonly before: readonly ClassifiedMessage[];
  readonly after: readonly ClassifiedMessage[];
  /** Sum of every row's counts. */
  readonly totals: RowCounts;
}

/** A zeroed {@link RowCounts}. */
export function noRowCounts(): RowCounts {
  return { ...noChanges(), folded: 0, mergedAssistant: 0, checkpoints: 0 };
}

/**
 * Says for every message before and after a compaction what happened to it and why. The mapping comes from
 * what the engines leave: untouched messages are the very objects (or keep their wire origin), rewrites keep
 * ids, part objects and tool-call ids, `report.boundaries` marks the folded middle, and the markers the
 * engines write tell digests, duplicates, collapsed records, truncations and system markers apart. What
 * cannot be told apart is called "changed".
 */
export function classifyMessages(
  before: readonly Message[],
  after: readonly Message[],
  report: CompactionReport,
): Classification {
  const bounds = report.boundaries;
  const inMiddle = (index: number): boolean =>
    bounds !== undefined && index >= bounds.headEnd && index < bounds.tailStart;
  const oldCheckpoints = new Set(before.flatMap((message) => leadingCheckpoint(message) ?? []));
  const isNewCheckpoint = (index: number): boolean => {
    const message = after[index] as Message;
    const text = leadingCheckpoint(message);
    return text !== undefined && message.parts.length === 1 && !oldCheckpoints.has(text);
  };
  const { sourceOf, untouched } = alignMessages(before, after, {
    unmatchedBefore: inMiddle,
    unmatchedAfter: isNewCheckpoint,
  });
  const targetOf = before.map(() => -1);
  sourceOf.forEach((source, index) => {
    if (source >= 0) targetOf[source] = index;
  });
  const latest = findLatestUserRequest(before);
  const keptReason = (index: number): string => {
    if (index === latest) return 'latest user request';
    if (bounds !== undefined) return index < bounds.headEnd ? 'protected head' : 'protected tail';
    if (before[index]?.role === 'user') return 'user messages are never rewritten';
    return 'untouched';
  };
  const afterRows: ClassifiedMessage[] = [];
  const mergedInto = new Map<number, number>();
  let previous = -1;
  for (const [index, message] of after.entries()) {
    const source = sourceOf[index] ?? -1;
    if (source < 0) {
      afterRows.push(unmatchedAfter(index, message, isNewCheckpoint(index), report));
      continue;
    }
    // Assistant messages skipped right before a rules rewrite were folded into it (rule 4).
    const folded: number[] = [];
    for (let at = previous + 1; at < source; at++) {
      if (before[at]?.role === 'assistant' && message.role === 'assistant' && !inMiddle(at)) folded.push(at);
    }
    previous = source;
    const merging = report.rules !== undefined && folded.length > 0;
    if (merging) for (const at of folded) mergedInto.set(at, index);
    if (untouched[index] === true) {
      afterRows.push(row('after', index, message, 'kept', keptReason(source), source, noRowCounts()));
      continue;
    }
    const sources = [...(merging ? folded : []), source].map((at) => before[at] as Message);
    afterRows.push(
      rewritten(index, message, diffMessage(sources, message), source, merging ? folded.length : 0),
    );
  }
  const beforeRows = before.map((message, index) =>
    beforeRow(index, message, {
      target: targetOf[index] ?? -1,
      afterRows,
      inMiddle,
      mergedInto,
      keptReason,
      report,
    }),
  );
  const totals = noRowCounts();
  for (const item of [...beforeRows, ...afterRows]) {
    for (const key of Object.keys(totals) as (keyof RowCounts)[]) totals[key] += item.counts[key];
  }
  return { before: beforeRows, after: afterRows, totals };
}

function row(
  side: 'before' | 'after',
  index: number,
  message: Message,
  status: MessageStatus,
  reason: string,
  counterpart: number,
  counts: RowCounts,
): ClassifiedMessage {
  return { side, index, message, status, reason, counterpart, counts };
}

function unmatchedAfter(
  index: number,
  message: Message,
  checkpoint: boolean,
  report: CompactionReport,
): ClassifiedMessage {
  if (!checkpoint)
    return row('after', index, message, 'changed', 'no matching message before', -1, noRowCounts());
  const source = report.summary.source === 'none' ? 'checkpoint' : `${report.summary.source} checkpoint`;
  const reason = `${source} standing for ${report.dropped} folded message${report.dropped === 1 ? '' : 's'}`;
  return row('after', index, message, 'new', reason, -1, { ...noRowCounts(), checkpoints: 1 });
}

/** The badge of a rewritten message, from what changed in it (the strongest change names the status). */
function rewritten(
  index: number,
  message: Message,
  changes: ChangeCounts,
  source: number,
  mergedCount: number,
): ClassifiedMessage {
  const counts: RowCounts = { ...noRowCounts(), ...changes, checkpoints: changes.checkpointMerged };
  const reasons: string[] = [];
  const say = (count: number, text: string): void => {
    if (count > 0) reasons.push(count === 1 ? text : `${count} × ${text}`);
  };
  say(changes.checkpointMerged, 'checkpoint put in front');
  say(mergedCount, 'earlier assistant message folded in');
  say(changes.collapsedPairs, 'tool call collapsed to a one-line record');
  say(changes.truncatedOutputs, 'output truncated');
  say(changes.droppedSystem, 'system message replaced by a marker');
  say(changes.digested, 'output digested');
  say(changes.deduplicated, 'output deduplicated');
  say(changes.argumentsShrunk, 'arguments shrunk');
  say(changes.imagesStripped, 'image stripped');
  say(changes.callsRemoved, 'orphan tool call removed');
  say(changes.resultsRemoved, 'orphan tool result removed');
  say(changes.noteAdded, 'compaction note added');
  const status: MessageStatus =
    changes.checkpointMerged > 0
      ? 'new'
      : mergedCount > 0
        ? 'merged'
        : changes.collapsedPairs > 0
          ? 'collapsed'
          : changes.truncatedOutputs > 0
            ? 'truncated'
            : changes.droppedSystem > 0 || changes.callsRemoved + changes.resultsRemoved > 0
              ? 'dropped'
              : changes.digested + changes.deduplicated + changes.argumentsShrunk + changes.imagesStripped > 0
                ? 'pruned'
                : 'changed';
  return row('after', index, message, status, reasons.join(', ') || 'rewritten', source, counts);
}

interface BeforeContext {
  readonly target: number;
  readonly afterRows: readonly ClassifiedMessage[];
  readonly inMiddle: (index: number) => boolean;
  readonly mergedInto: ReadonlyMap<number, number>;
  readonly keptReason: (index: number) => string;
  readonly report: CompactionReport;
}

function beforeRow(index: number, message: Message, context: BeforeContext): ClassifiedMessage {
  const { target, report } = context;
  const none = noRowCounts();
  const counterpart = context.afterRows[target];
  if (counterpart !== undefined) {
    // A kept message that received the checkpoint is itself kept; the after side carries the "new" badge.
    if (counterpart.status === 'kept' || counterpart.status === 'new')
      return row('before', index, message, 'kept', context.keptReason(index), target, none);
    return row('before', index, message, counterpart.status, counterpart.reason, target, none);
  }
  if (context.inMiddle(index))
    return row('before', index, message, 'folded', 'folded into the checkpoint', -1, { ...none, folded: 1 });
  const into = context.mergedInto.get(index);
  if (into !== undefined)
    return row('before', index, message, 'merged', 'folded into a later assistant message', into, {
      ...none,
      mergedAssistant: 1,
    });
  if (checkpointOf(message) !== undefined && !hasUserContentBesidesCheckpoint(message))
    return row('before', index, message, 'folded', 'earlier checkpoint, updated into the new one', -1, none);
  if (message.role === 'tool')
    return report.rules !== undefined
      ? row('before', index, message, 'collapsed', 'result collapsed into a one-line record', -1, none)
      : row(
          'before',
          index,
          message,
          'dropped',
          'orphan tool result removed (its call was folded)',
          -1,
          none,
        );
  return row('before', index, message, 'dropped', 'not in the compacted transcript', -1, none);
}
