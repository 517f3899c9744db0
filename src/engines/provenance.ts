import type { Message } from '../model/message.js';
import { findLatestUserRequest } from '../transforms/find-latest-user-request.js';
import { type ChangeCounts, diffMessage, noChanges } from './message-changes.js';

/** Where the kept head ends and the kept tail starts (the compressor's partition). */
type Partition = { readonly headEnd: number; readonly tailStart: number };

/** What became of an output message: the status its badge shows in the HTML report. */
export type OutputStatus =
  | 'kept'
  | 'pruned'
  | 'folded'
  | 'collapsed'
  | 'truncated'
  | 'dropped'
  | 'merged'
  | 'new'
  | 'changed';

/**
 * What became of an input message: `kept` (it is an output message as it was, or with the checkpoint put in
 * front), `rewritten` (the output message `into` is its rewrite), `merged` (folded into the later message
 * `into`), `folded` (summarized into the checkpoint), `superseded` (an earlier checkpoint the new one updates),
 * `collapsed` (a tool result reduced to a one-line record) or `dropped` (removed).
 */
export type InputStatus = 'kept' | 'rewritten' | 'merged' | 'folded' | 'superseded' | 'collapsed' | 'dropped';

/** Where one output message came from and why it is as it is. */
export interface OutputProvenance {
  readonly status: OutputStatus;
  /**
   * Input indices it stands for, ascending: the last is the message it is (or was rewritten from), earlier ones
   * were folded into it. Empty for a message the pass wrote (a checkpoint, a stub result).
   */
  readonly from: readonly number[];
  /** Why, in a few words. */
  readonly reason: string;
  /** What was done to it, by kind (kinds not listed: none). */
  readonly changes?: Readonly<Partial<ChangeCounts>>;
}

/** What became of one input message. */
export interface InputProvenance {
  readonly status: InputStatus;
  /** The output message it is, was rewritten into or merged into; -1 when it left the transcript. */
  readonly into: number;
  readonly reason: string;
}

/**
 * Per-message provenance of a compaction pass: one entry per output message and one per input message, so a
 * reader (the HTML report) shows what happened to each message without re-deriving it. Engines never reorder:
 * the `from` lists, read in output order, are strictly increasing.
 */
export interface CompactionProvenance {
  readonly output: readonly OutputProvenance[];
  readonly input: readonly InputProvenance[];
}

/** Why an input message that no output message stands for left the transcript. */
export interface RemovedReason {
  readonly status: 'folded' | 'superseded' | 'collapsed' | 'dropped';
  readonly reason: string;
}

/** What an engine knows about its pass, from which {@link buildProvenance} writes the provenance. */
export interface ProvenanceFacts {
  readonly input: readonly Message[];
  readonly output: readonly Message[];
  /** Per output message: the input indices it stands for (see {@link OutputProvenance.from}), or why it is new. */
  readonly sources: readonly (readonly number[] | { readonly newReason: string })[];
  /** Why an input message no output stands for is gone (asked only for those). */
  readonly removed: (index: number) => RemovedReason;
  /** The compressor's partition, which names why kept messages were kept. */
  readonly boundaries?: Partition | undefined;
}

/** True when an output message is its input message untouched (same object, or same parts array). */
export function isSameMessage(input: Message, output: Message): boolean {
  return input === output || input.parts === output.parts;
}

/** Why an input message was sent as it was. */
export function keptReasonOf(
  input: readonly Message[],
  boundaries: Partition | undefined,
): (index: number) => string {
  const latest = findLatestUserRequest(input);
  return (index) => {
    if (index === latest) return 'latest user request';
    if (boundaries !== undefined) return index < boundaries.headEnd ? 'protected head' : 'protected tail';
    if (input[index]?.role === 'user') return 'user messages are never rewritten';
    return 'untouched';
  };
}

/** The reason a new checkpoint message gives. */
export function checkpointReason(source: string, dropped: number): string {
  const name = source === 'none' ? 'checkpoint' : `${source} checkpoint`;
  return `${name} standing for ${dropped} folded message${dropped === 1 ? '' : 's'}`;
}

/** The provenance of a pass that returned its input: every message kept. */
export function keptProvenance(messages: readonly Message[]): CompactionProvenance {
  const why = keptReasonOf(messages, undefined);
  return {
    output: messages.map((_, index) => ({ status: 'kept', from: [index], reason: why(index) })),
    input: messages.map((_, index) => ({ status: 'kept', into: index, reason: why(index) })),
  };
}

/**
 * The provenance of a pass from what its engine knows: which input messages each output message stands for,
 * and why the others left. A kept message is its input untouched; a rewrite is named by what was done to it.
 */
export function buildProvenance(facts: ProvenanceFacts): CompactionProvenance {
  const { input, output } = facts;
  const keptReason = keptReasonOf(input, facts.boundaries);
  const outputs: OutputProvenance[] = output.map((message, index) => {
    const source = facts.sources[index] ?? [];
    if ('newReason' in source) return { status: 'new', from: [], reason: source.newReason };
    const from = source;
    const last = from[from.length - 1];
    if (last === undefined) return { status: 'new', from, reason: 'written by the pass' };
    if (from.length === 1 && isSameMessage(input[last] as Message, message))
      return { status: 'kept', from, reason: keptReason(last) };
    const changes = diffMessage(
      from.map((at) => input[at] as Message),
      message,
    );
    return { ...describeRewrite(changes, from.length - 1), from, changes: nonZero(changes) };
  });
  return { output: outputs, input: inputsOf(input.length, outputs, facts.removed, keptReason) };
}

/**
 * The input side of a provenance, from its output side: an input message an output stands for is kept,
 * rewritten or merged into it; the others left, as `removed` says.
 */
export function inputsOf(
  count: number,
  outputs: readonly OutputProvenance[],
  removed: (index: number) => RemovedReason,
  keptReason: (index: number) => string,
): InputProvenance[] {
  const inputs: (InputProvenance | undefined)[] = new Array(count).fill(undefined);
  for (let index = 0; index < outputs.length; index++) {
    const entry = outputs[index] as OutputProvenance;
    const last = entry.from.length - 1;
    for (let position = 0; position <= last; position++) {
      const at = entry.from[position] as number;
      if (position < last)
        inputs[at] = { status: 'merged', into: index, reason: 'folded into a later assistant message' };
      else if (entry.status === 'kept' || entry.status === 'new')
        inputs[at] = { status: 'kept', into: index, reason: keptReason(at) };
      else inputs[at] = { status: 'rewritten', into: index, reason: entry.reason };
    }
  }
  // Only the messages no output stands for ask why they left.
  for (let index = 0; index < count; index++) {
    if (inputs[index] !== undefined) continue;
    const gone = removed(index);
    inputs[index] = { status: gone.status, reason: gone.reason, into: -1 };
  }
  return inputs as InputProvenance[];
}

// In the order of `noChanges`, which is the order the report lists them in.
const CHANGE_KINDS = Object.keys(noChanges()) as (keyof ChangeCounts)[];

function nonZero(changes: ChangeCounts): Partial<ChangeCounts> {
  const out: Partial<ChangeCounts> = {};
  for (const kind of CHANGE_KINDS) {
    const value = changes[kind];
    if (value !== 0) out[kind] = value;
  }
  return out;
}

/** The status and reason of a rewritten message, from what changed in it (the strongest change names the status). */
export function describeRewrite(
  changes: ChangeCounts,
  mergedCount: number,
): { status: OutputStatus; reason: string } {
  const reasons: string[] = [];
  say(reasons, changes.checkpointMerged, 'checkpoint put in front');
  say(reasons, mergedCount, 'earlier assistant message folded in');
  say(reasons, changes.collapsedPairs, 'tool call collapsed to a one-line record');
  say(reasons, changes.truncatedOutputs, 'output truncated');
  say(reasons, changes.droppedSystem, 'system message replaced by a marker');
  say(reasons, changes.digested, 'output digested');
  say(reasons, changes.deduplicated, 'output deduplicated');
  say(reasons, changes.argumentsShrunk, 'arguments shrunk');
  say(reasons, changes.imagesStripped, 'image stripped');
  say(reasons, changes.callsRemoved, 'orphan tool call removed');
  say(reasons, changes.resultsRemoved, 'orphan tool result removed');
  say(reasons, changes.noteAdded, 'compaction note added');
  const status: OutputStatus =
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
  return { status, reason: reasons.join(', ') || 'rewritten' };
}

/** Adds `text` (with its count when over one) to `reasons` when `count` is positive; a module function, not a
 * closure, because tsx keeps names and naming a closure costs a defineProperty per call. */
function say(reasons: string[], count: number, text: string): void {
  if (count > 0) reasons.push(count === 1 ? text : `${count} × ${text}`);
}
