import type { CompactionReport } from '../engines/compaction-report.js';
import { diffMessage, leadingCheckpoint } from '../engines/message-changes.js';
import {
  type CompactionProvenance,
  checkpointReason,
  describeRewrite,
  inputsOf,
  keptReasonOf,
  type OutputProvenance,
  type RemovedReason,
} from '../engines/provenance.js';
import type { Message } from '../model/message.js';
import { checkpointOf, hasUserContentBesidesCheckpoint } from '../transforms/checkpoint-text.js';
import { alignMessages } from './align-messages.js';

/**
 * The provenance of a report that carries none (an engine that does not record it), re-derived from what
 * engines leave: untouched messages are the very objects (or keep their wire origin), rewrites keep ids, part
 * objects and tool-call ids, `report.boundaries` marks the folded middle, and the markers the built-in engines
 * write tell digests, duplicates, collapsed records, truncations and system markers apart. What cannot be
 * told apart is called "changed".
 */
export function deriveProvenance(
  before: readonly Message[],
  after: readonly Message[],
  report: CompactionReport,
): CompactionProvenance {
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
  const keptReason = keptReasonOf(before, bounds);
  const output: OutputProvenance[] = [];
  let previous = -1;
  for (const [index, message] of after.entries()) {
    const source = sourceOf[index] ?? -1;
    if (source < 0) {
      output.push(
        isNewCheckpoint(index)
          ? { status: 'new', from: [], reason: checkpointReason(report.summary.source, report.dropped) }
          : { status: 'changed', from: [], reason: 'no matching message before' },
      );
      continue;
    }
    // Assistant messages skipped right before a rules rewrite were folded into it (rule 4).
    const folded: number[] = [];
    for (let at = previous + 1; at < source; at++) {
      if (before[at]?.role === 'assistant' && message.role === 'assistant' && !inMiddle(at)) folded.push(at);
    }
    previous = source;
    const from = [...(report.rules !== undefined ? folded : []), source];
    if (untouched[index] === true) {
      output.push({ status: 'kept', from, reason: keptReason(source) });
      continue;
    }
    const changes = diffMessage(
      from.map((at) => before[at] as Message),
      message,
    );
    output.push({ ...describeRewrite(changes, from.length - 1), from, changes });
  }
  const removed = (index: number): RemovedReason => {
    const message = before[index] as Message;
    if (inMiddle(index)) return { status: 'folded', reason: 'folded into the checkpoint' };
    if (checkpointOf(message) !== undefined && !hasUserContentBesidesCheckpoint(message))
      return { status: 'superseded', reason: 'earlier checkpoint, updated into the new one' };
    if (message.role === 'tool')
      return report.rules !== undefined
        ? { status: 'collapsed', reason: 'result collapsed into a one-line record' }
        : { status: 'dropped', reason: 'orphan tool result removed (its call was folded)' };
    return { status: 'dropped', reason: 'not in the compacted transcript' };
  };
  return { output, input: inputsOf(before.length, output, removed, keptReason) };
}
