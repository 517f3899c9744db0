import type { Message } from '../../model/message.js';
import { messageText, textPart, withParts } from '../../model/message-helpers.js';
import type { Transcript } from '../../model/transcript.js';
import type { SummaryRequest } from '../../summarizer/summarizer.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import {
  checkpointOf,
  hasUserContentBesidesCheckpoint,
  renderCheckpoint,
  withoutCheckpoint,
} from '../../transforms/checkpoint-text.js';
import { type PlacedCheckpoint, placeCheckpoint } from '../../transforms/place-checkpoint.js';
import { sanitizeToolPairs } from '../../transforms/sanitize-tool-pairs.js';
import { countOf } from '../../transforms/text-facts.js';
import { isPersonRequest, personText } from '../../transforms/user-turns.js';
import { ContextOverflowError } from '../budget-error.js';
import { checkpointReason, type ProvenanceFacts } from '../provenance.js';
import { irreducibleTokens } from '../window.js';
import type { ResolvedCompressorSettings } from './options.js';
import { type CompactPassResult, countAll, finishPass, NO_PRUNING } from './pass-finish.js';
import {
  layOut,
  layOutAroundRequest,
  type PassLayout,
  SQUEEZE_LEVELS,
  type SqueezeLevel,
} from './pass-layout.js';
import type { SummarizeFunction } from './summary-outcome.js';
import { SYSTEM_NOTE, staticFallbackBody } from './texts.js';

export type { CompactPassResult } from './pass-finish.js';

/** Everything one compaction pass needs besides the transcript. */
export interface CompactPassInput {
  readonly settings: ResolvedCompressorSettings;
  readonly thresholdTokens: number;
  /** The most the output may take: the context window less the output reservation. */
  readonly limitTokens: number;
  readonly counter: TokenCounter;
  readonly exactCounter: TokenCounter | undefined;
  readonly summarize: SummarizeFunction;
  /** Compactions already done in this conversation (head protection decays after the first). */
  readonly compactionCount: number;
  /** Checkpoint body the engine remembers from its last pass, used when the transcript carries none. */
  readonly previousSummary: string | undefined;
  readonly focusTopic: string | undefined;
  readonly signal: AbortSignal | undefined;
}

/** Tokens a checkpoint message costs beyond its body (header, preamble, end marker, framing). */
const CHECKPOINT_OVERHEAD = 120;
/** Less room than this for the checkpoint body makes the pass squeeze harder first. */
const MIN_CHECKPOINT_ROOM = 400;
const NORMAL = SQUEEZE_LEVELS[0] as SqueezeLevel;
/** Tokens taken off the checkpoint beyond a measured excess when a fold is redone to fit. */
const EXCESS_MARGIN = 16;

/**
 * One compaction pass: prune old tool output, choose head and tail, fold the middle (and any earlier
 * checkpoint) into one updated checkpoint, place it so provider rules hold, and repair tool pairs. The output
 * always fits `limitTokens`: when the normal layout would not, the pass keeps less verbatim (see
 * `SQUEEZE_LEVELS`) and gives the checkpoint only the room left; when nothing fits, it raises a
 * {@link ContextOverflowError}. It never returns a transcript bigger than its input.
 */
export async function runCompactPass(
  transcript: Transcript,
  input: CompactPassInput,
): Promise<CompactPassResult> {
  const messages = transcript.messages;
  const before = countAll(messages, input);
  const fits = before.rough <= input.limitTokens;
  const pass: Attempts = { transcript, input, before, best: undefined };
  const cramped: { layout: PassLayout; room: number }[] = [];
  // Each layout is made only when the ones before it failed: the squeeze levels, then the last resort.
  for (let level = 0; level <= SQUEEZE_LEVELS.length; level++) {
    const squeeze = SQUEEZE_LEVELS[level];
    const layout =
      squeeze === undefined ? layOutAroundRequest(messages, input) : layOut(messages, input, squeeze);
    if (layout === undefined) continue;
    if (layout.headEnd >= layout.tailStart) {
      if (layout.level === 0 && fits) return unchanged(transcript, layout, input, before);
      continue;
    }
    const room = input.limitTokens - layout.keptTokens - CHECKPOINT_OVERHEAD;
    // A layout that leaves the checkpoint no useful room is tried only when every other one failed.
    if (room < MIN_CHECKPOINT_ROOM) {
      cramped.push({ layout, room });
      continue;
    }
    const done = await attempt(pass, layout, room);
    if (done !== undefined) return done;
  }
  cramped.sort((a, b) => b.room - a.room);
  for (const { layout, room } of cramped) {
    if (room <= 0) continue;
    const done = await attempt(pass, layout, room);
    if (done !== undefined) return done;
  }
  // What is always kept is past the window already: fold around it anyway (the layout keeping least, the
  // checkpoint at its smallest), so the result raised with the overflow is the smallest, not the input.
  const leanest = cramped[0];
  if (pass.best === undefined && leanest !== undefined) {
    const done = await attempt(pass, leanest.layout, leanest.room);
    if (done !== undefined) return done;
  }
  const smallest = pass.best ?? unchanged(transcript, layOut(messages, input, NORMAL), input, before);
  if (smallest.report.tokensAfter.rough <= input.limitTokens) return smallest;
  throw new ContextOverflowError({
    tokens: smallest.report.tokensAfter.rough,
    limit: input.limitTokens,
    irreducible: irreducibleTokens(messages, input.counter),
    best: { transcript: smallest.transcript, report: smallest.report },
  });
}

/** A pass's folds so far: the smallest result that did not fit is kept in `best`. */
interface Attempts {
  readonly transcript: Transcript;
  readonly input: CompactPassInput;
  readonly before: ReturnType<typeof countAll>;
  best: CompactPassResult | undefined;
}

/** Folds the middle of `layout`: the result when it fits (or the pass aborted), else undefined. */
async function attempt(
  pass: Attempts,
  layout: PassLayout,
  room: number,
): Promise<CompactPassResult | undefined> {
  const { transcript, input, before, best } = pass;
  const result = await foldWithin(
    (within) => foldMiddle(transcript, layout, input, before, within),
    input.limitTokens,
    room,
  );
  if (result.report.aborted || result.report.tokensAfter.rough <= input.limitTokens) return result;
  if (best === undefined || result.report.tokensAfter.rough < best.report.tokensAfter.rough)
    pass.best = result;
  return undefined;
}

/** Nothing lies between head and tail: the pruned transcript, or the input when pruning changed nothing. */
function unchanged(
  transcript: Transcript,
  layout: PassLayout,
  input: CompactPassInput,
  before: ReturnType<typeof countAll>,
): CompactPassResult {
  const whole = layout.whole();
  const candidate =
    transcript.messages === whole.working ? transcript : { ...transcript, messages: whole.working };
  return finishPass(transcript, candidate, {
    counters: input,
    previousSummary: input.previousSummary,
    before,
    pruning: whole.pruning,
    reason: 'nothing between the protected head and tail to fold',
  });
}

/**
 * Folds the middle with `room` tokens for the checkpoint; when the whole comes out a little over the limit
 * (token estimates of parts do not add up exactly), folds once more with the excess taken off the room.
 */
async function foldWithin(
  fold: (room: number) => Promise<CompactPassResult>,
  limitTokens: number,
  room: number,
): Promise<CompactPassResult> {
  const result = await fold(Math.max(1, room));
  const excess = result.report.tokensAfter.rough - limitTokens;
  if (result.report.aborted || excess <= 0 || excess >= room) return result;
  return fold(Math.max(1, room - excess - EXCESS_MARGIN));
}

async function foldMiddle(
  transcript: Transcript,
  layout: PassLayout,
  input: CompactPassInput,
  before: ReturnType<typeof countAll>,
  room: number,
): Promise<CompactPassResult> {
  const { settings } = input;
  const { working, headEnd, tailStart } = layout;
  const messages = transcript.messages;
  const keep = layout.keepRequestAt;
  const head = working.slice(0, headEnd);
  const middle = foldedPart(working, layout);
  const tailIndices = range(tailStart, working.length, keep);
  const tail = tailIndices.map((index) => working[index] as Message);
  // A checkpoint kept inside the head (the head then holds the latest request) is superseded, not updated.
  const remembered = layout.headCheckpointIndex === undefined ? input.previousSummary : undefined;
  const previous = collectPreviousCheckpoint(middle, tail, remembered);
  // The summarizer reads the turns as they were, not their digests: pruning keeps positions, so the same
  // slice of the input is the unpruned middle.
  const source = working.length === messages.length ? foldedPart(messages, layout) : middle;
  const request = summaryRequest(source, working, previous.body, input, room);
  const outcome = await input.summarize(request, input.signal);
  const common = { counters: input, previousSummary: input.previousSummary, before };
  if (outcome.kind === 'abort' || (outcome.kind === 'failed' && settings.abortOnSummaryFailure)) {
    return finishPass(transcript, transcript, {
      ...common,
      pruning: NO_PRUNING,
      aborted: true,
      errors: outcome.errors,
      reason: 'the summary could not be made; the transcript is unchanged',
    });
  }
  const body = outcome.kind === 'summary' ? outcome.result.text : staticFallbackBody(request.messages.length);
  const origin = outcome.kind === 'summary' ? outcome.result.source : 'fallback-marker';
  const text = renderCheckpoint(body, origin);
  const placed = placeCheckpoint(withSystemNote(head, settings.noteInSystemPrompt), text, previous.tail);
  const sanitized = sanitizeToolPairs(placed.messages, { orphanCalls: settings.orphanCalls });
  const sources = foldSources({
    layout,
    tailIndices: tailIndices.slice(tail.length - previous.tail.length),
    superseded: previous.tail.length < tail.length ? tailIndices[0] : undefined,
    placed,
    sanitized: sanitized.sources,
    checkpoint: checkpointReason(origin, middle.length),
  });
  const notes = [
    ...(outcome.kind === 'summary' ? (outcome.result.notes ?? []) : []),
    ...(layout.level > 0
      ? [
          `squeezed (level ${layout.level}): less was kept verbatim to fit ${countOf(input.limitTokens, 'token')}`,
        ]
      : []),
  ];
  return finishPass(
    transcript,
    { ...transcript, messages: sanitized.messages },
    {
      ...common,
      pruning: layout.pruning,
      bounds: { headEnd, tailStart },
      dropped: middle.length,
      errors: outcome.errors,
      notes,
      summary: {
        source: origin,
        ...(outcome.kind === 'summary' && outcome.result.model !== undefined
          ? { model: outcome.result.model }
          : {}),
        calls: outcome.kind === 'summary' ? outcome.result.calls : 0,
        tokens: input.counter.countText(text),
        updatedPrevious: previous.body !== undefined,
      },
      summaryBody: outcome.kind === 'summary' ? body : input.previousSummary,
      sources,
    },
  );
}

/** The messages of `list` the layout folds: between head and tail, but for a request it keeps. */
function foldedPart(list: readonly Message[], layout: PassLayout): Message[] {
  const folded: Message[] = [];
  const end = Math.min(layout.tailStart, list.length);
  for (let index = layout.headEnd; index < end; index++)
    if (index !== layout.keepRequestAt) folded.push(list[index] as Message);
  return folded;
}

/** `first` (when given), then `start`, `start + 1`… up to `end` (excluded). */
function range(start: number, end: number, first?: number): number[] {
  const out: number[] = first === undefined ? [] : [first];
  for (let index = start; index < end; index++) out.push(index);
  return out;
}

/** What {@link foldSources} traces a folded pass's output back through. */
interface FoldTrace {
  readonly layout: PassLayout;
  /** Input indices of the tail as placed (an earlier checkpoint-only first message left out). */
  readonly tailIndices: readonly number[];
  /** Input index of a first tail message that was only an earlier checkpoint (now updated into the new one). */
  readonly superseded: number | undefined;
  readonly placed: PlacedCheckpoint;
  /** Per output message, its index among the placed messages (-1: a stub result). */
  readonly sanitized: readonly number[];
  readonly checkpoint: string;
}

/** Where each output message of a folded pass came from, and why the other input messages went. */
function foldSources(trace: FoldTrace): Pick<ProvenanceFacts, 'sources' | 'removed'> {
  const { layout, placed } = trace;
  const standalone = placed.placement !== 'merged';
  const placedSources: (readonly number[] | { newReason: string })[] = [
    ...range(0, layout.headEnd).map((index) => [index]),
    ...(standalone ? [{ newReason: trace.checkpoint }] : []),
    ...trace.tailIndices.map((index) => [index]),
  ];
  const sources = trace.sanitized.map(
    (at) => placedSources[at] ?? { newReason: 'stub result for a call whose output is not kept' },
  );
  return {
    sources,
    removed(index) {
      if (index >= layout.headEnd && index < layout.tailStart && index !== layout.keepRequestAt)
        return { status: 'folded', reason: 'folded into the checkpoint' };
      if (index === trace.superseded)
        return { status: 'superseded', reason: 'earlier checkpoint, updated into the new one' };
      return { status: 'dropped', reason: 'orphan tool result removed (its call was folded)' };
    },
  };
}

/** What the summarizer is asked: the turns to fold (checkpoint-only messages left out), and what to keep. */
function summaryRequest(
  source: readonly Message[],
  working: readonly Message[],
  previousSummary: string | undefined,
  input: CompactPassInput,
  room: number,
): SummaryRequest {
  const turns: Message[] = [];
  let folded = 0;
  for (const message of source) {
    if (checkpointOf(message) !== undefined && !hasUserContentBesidesCheckpoint(message)) continue;
    turns.push(message);
    folded += input.counter.countMessage(message);
  }
  const { latest, userRequests } = personRequests(working);
  const target = Math.min(summaryTarget(folded, input.settings), room);
  return {
    messages: turns,
    ...(previousSummary === undefined ? {} : { previousSummary }),
    ...(input.focusTopic === undefined ? {} : { focusTopic: input.focusTopic }),
    ...(latest === undefined ? {} : { latestUserRequest: latest }),
    ...(userRequests.length === 0 ? {} : { userRequests }),
    targetTokens: Math.max(1, target),
    maxTokens: room,
    counter: input.counter,
  };
}

/**
 * The person's words of every request in `messages`, in order, and of the latest one (`findLatestUserRequest`,
 * which may be an attachment without words), in one pass over the messages.
 */
function personRequests(messages: readonly Message[]): {
  readonly latest: string | undefined;
  readonly userRequests: string[];
} {
  const userRequests: string[] = [];
  let latest: string | undefined;
  for (const message of messages) {
    if (!isPersonRequest(message)) continue;
    latest = personText(message);
    if (latest !== undefined) userRequests.push(latest);
  }
  return { latest, userRequests };
}

/**
 * Checkpoint length to aim for: a share of the folded turns, at least `summaryMinTokens` (but never more than
 * half of what is folded, or the checkpoint could outgrow it), at most `summaryMaxTokens` or `summaryMaxShare` of the window.
 */
function summaryTarget(foldTokens: number, settings: ResolvedCompressorSettings): number {
  const ceiling = Math.min(
    settings.summaryMaxTokens,
    Math.floor(settings.contextLength * settings.summaryMaxShare),
  );
  const floor = Math.min(settings.summaryMinTokens, Math.floor(foldTokens / 2));
  return Math.max(1, floor, Math.min(Math.floor(foldTokens * settings.summaryRatio), ceiling));
}

/**
 * The checkpoint to update: the newest one in the folded region or merged into the first kept message (whose
 * checkpoint part is then removed so checkpoints never nest), else the one the engine remembers.
 */
function collectPreviousCheckpoint(
  middle: readonly Message[],
  tail: Message[],
  remembered: string | undefined,
): { body: string | undefined; tail: Message[] } {
  let body: string | undefined;
  for (const message of middle) body = checkpointOf(message)?.body ?? body;
  const first = tail[0];
  const merged = first === undefined ? undefined : checkpointOf(first);
  if (first !== undefined && merged !== undefined) {
    body = merged.body;
    const rest = withoutCheckpoint(first);
    tail = rest === undefined ? tail.slice(1) : [rest, ...tail.slice(1)];
  }
  return { body: body ?? remembered, tail };
}

function withSystemNote(head: readonly Message[], enabled: boolean): Message[] {
  const system = head[0];
  if (
    !enabled ||
    system === undefined ||
    system.role !== 'system' ||
    messageText(system).includes(SYSTEM_NOTE)
  ) {
    return [...head];
  }
  return [withParts(system, [...system.parts, textPart(`\n\n${SYSTEM_NOTE}`)]), ...head.slice(1)];
}
