import type { CompactionReport } from '../engines/compaction-report.js';
import { type ChangeCounts, noChanges } from '../engines/message-changes.js';
import type { CompactionProvenance, OutputStatus } from '../engines/provenance.js';
import type { Message } from '../model/message.js';
import { deriveProvenance } from './derive-provenance.js';

/** What happened to a message, as its badge says. */
export type MessageStatus = OutputStatus;

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
 * Says for every message before and after a compaction what happened to it and why, as the engine's
 * provenance records it; for a report without provenance (an engine that emits none) it is re-derived from
 * the messages ({@link deriveProvenance}).
 */
export function classifyMessages(
  before: readonly Message[],
  after: readonly Message[],
  report: CompactionReport,
): Classification {
  return classifyByProvenance(before, after, report.provenance ?? deriveProvenance(before, after, report));
}

/** The rows of both sides, as a provenance describes them. */
export function classifyByProvenance(
  before: readonly Message[],
  after: readonly Message[],
  provenance: CompactionProvenance,
): Classification {
  const afterRows = after.map((message, index): ClassifiedMessage => {
    const entry = provenance.output[index];
    if (entry === undefined)
      return row('after', index, message, 'changed', 'no provenance', -1, noRowCounts());
    const changes = { ...noChanges(), ...entry.changes };
    const checkpoints = entry.status === 'new' && entry.from.length === 0 ? 1 : changes.checkpointMerged;
    const counterpart = entry.from[entry.from.length - 1] ?? -1;
    return row('after', index, message, entry.status, entry.reason, counterpart, {
      ...noRowCounts(),
      ...changes,
      checkpoints,
    });
  });
  const beforeRows = before.map((message, index): ClassifiedMessage => {
    const entry = provenance.input[index];
    const none = noRowCounts();
    if (entry === undefined) return row('before', index, message, 'changed', 'no provenance', -1, none);
    switch (entry.status) {
      case 'kept':
        return row('before', index, message, 'kept', entry.reason, entry.into, none);
      case 'rewritten': {
        const target = afterRows[entry.into];
        const status = target?.status ?? 'changed';
        return row('before', index, message, status, target?.reason ?? entry.reason, entry.into, none);
      }
      case 'merged':
        return row('before', index, message, 'merged', entry.reason, entry.into, {
          ...none,
          mergedAssistant: 1,
        });
      case 'folded':
        return row('before', index, message, 'folded', entry.reason, -1, { ...none, folded: 1 });
      case 'superseded':
        return row('before', index, message, 'folded', entry.reason, -1, none);
      default:
        return row('before', index, message, entry.status, entry.reason, -1, none);
    }
  });
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
