import type { Message } from '../../model/message.js';
import { messageText, textPart, withParts } from '../../model/message-helpers.js';
import type { Transcript } from '../../model/transcript.js';
import type { SummaryRequest } from '../../summarizer/summarizer.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import {
  checkpointOf,
  hasUserContentBesidesCheckpoint,
  renderCheckpoint,
} from '../../transforms/checkpoint-text.js';
import { findBoundaries } from '../../transforms/find-boundaries.js';
import { findLatestUserRequest } from '../../transforms/find-latest-user-request.js';
import { placeCheckpoint } from '../../transforms/place-checkpoint.js';
import { pruneToolOutputs } from '../../transforms/prune-tool-outputs.js';
import { sanitizeToolPairs } from '../../transforms/sanitize-tool-pairs.js';
import type { CompactionReport, PruningReport } from '../compaction-report.js';
import type { ResolvedCompressorSettings } from './options.js';
import type { SummarizeFunction } from './summary-outcome.js';
import { SYSTEM_NOTE, staticFallbackBody } from './texts.js';

/** Everything one compaction pass needs besides the transcript. */
export interface CompactPassInput {
  readonly settings: ResolvedCompressorSettings;
  readonly thresholdTokens: number;
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

/** A pass's output, plus what the engine must remember. */
export interface CompactPassResult {
  readonly transcript: Transcript;
  readonly report: CompactionReport;
  /** The checkpoint body to update next time (unchanged when the pass wrote none). */
  readonly summaryBody: string | undefined;
}

const NO_PRUNING: PruningReport = { deduplicated: 0, digested: 0, argumentsShrunk: 0, imagesStripped: 0 };

/**
 * One compaction pass: prune old tool output, choose head and tail, fold the middle (and any earlier
 * checkpoint) into one updated checkpoint, place it so provider rules hold, and repair tool pairs. Never
 * returns a transcript bigger than its input: such a result is discarded and reported.
 */
export async function runCompactPass(
  transcript: Transcript,
  input: CompactPassInput,
): Promise<CompactPassResult> {
  const { settings, counter } = input;
  const messages = transcript.messages;
  const before = countAll(messages, input);
  const tailTokenBudget = Math.floor(input.thresholdTokens * settings.tailRatio);
  const pruned = pruneToolOutputs(messages, {
    counter,
    protectLastN: settings.protectLastN,
    protectTailTokens: tailTokenBudget,
    dedupeKeep: settings.dedupeKeep,
  });
  const working = pruned.messages;
  const bounds = findBoundaries(working, {
    counter,
    protectFirstN: input.compactionCount === 0 ? settings.protectFirstN : 0,
    protectLastN: settings.protectLastN,
    tailTokenBudget,
    compactionCount: input.compactionCount,
  });
  const { headEnd, tailStart } = bounds;
  if (headEnd >= tailStart) {
    return finish(
      transcript,
      transcript.messages === working ? transcript : { ...transcript, messages: working },
      {
        input,
        before,
        pruning: pruned.report,
        reason: 'nothing between the protected head and tail to fold',
      },
    );
  }
  const head = working.slice(0, headEnd);
  const middle = working.slice(headEnd, tailStart);
  const tail = [...working.slice(tailStart)];
  // A checkpoint kept inside the head (the head then holds the latest request) is superseded, not updated.
  const remembered = bounds.headCheckpointIndex === undefined ? input.previousSummary : undefined;
  const previous = collectPreviousCheckpoint(middle, tail, remembered);
  // The summarizer reads the turns as they were, not their digests: pruning keeps positions, so the same
  // slice of the input is the unpruned middle.
  const source = working.length === messages.length ? messages.slice(headEnd, tailStart) : middle;
  const request = summaryRequest(source, working, previous.body, input);
  const outcome = await input.summarize(request, input.signal);
  if (outcome.kind === 'abort' || (outcome.kind === 'failed' && settings.abortOnSummaryFailure)) {
    return finish(transcript, transcript, {
      input,
      before,
      pruning: NO_PRUNING,
      aborted: true,
      errors: outcome.errors,
      reason: 'the summary could not be made; the transcript is unchanged',
    });
  }
  const body = outcome.kind === 'summary' ? outcome.result.text : staticFallbackBody(request.messages.length);
  const origin = outcome.kind === 'summary' ? outcome.result.source : 'fallback-marker';
  const placed = placeCheckpoint(
    withSystemNote(head, settings.noteInSystemPrompt),
    renderCheckpoint(body, origin),
    previous.tail,
  );
  const sanitized = sanitizeToolPairs(placed.messages, { orphanCalls: settings.orphanCalls });
  const result: Transcript = { ...transcript, messages: sanitized.messages };
  return finish(transcript, result, {
    input,
    before,
    pruning: pruned.report,
    bounds: { headEnd, tailStart },
    dropped: middle.length,
    errors: outcome.errors,
    summary: {
      source: origin,
      ...(outcome.kind === 'summary' && outcome.result.model !== undefined
        ? { model: outcome.result.model }
        : {}),
      calls: outcome.kind === 'summary' ? outcome.result.calls : 0,
      tokens: counter.countText(renderCheckpoint(body, origin)),
      updatedPrevious: previous.body !== undefined,
    },
    summaryBody: outcome.kind === 'summary' ? body : input.previousSummary,
  });
}

/** What the summarizer is asked: the turns to fold (checkpoint-only messages left out), and what to keep. */
function summaryRequest(
  source: readonly Message[],
  working: readonly Message[],
  previousSummary: string | undefined,
  input: CompactPassInput,
): SummaryRequest {
  const turns = source.filter(
    (message) => checkpointOf(message) === undefined || hasUserContentBesidesCheckpoint(message),
  );
  const latestIndex = findLatestUserRequest(working);
  const latest = latestIndex === -1 ? undefined : requestText(working[latestIndex] as Message);
  const folded = turns.reduce((sum, message) => sum + input.counter.countMessage(message), 0);
  return {
    messages: turns,
    ...(previousSummary === undefined ? {} : { previousSummary }),
    ...(input.focusTopic === undefined ? {} : { focusTopic: input.focusTopic }),
    ...(latest === undefined ? {} : { latestUserRequest: latest }),
    targetTokens: summaryTarget(folded, input.settings),
    counter: input.counter,
  };
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
    const rest = first.parts.filter((_, index) => index !== merged.partIndex);
    tail = rest.length === 0 ? tail.slice(1) : [withParts(first, rest), ...tail.slice(1)];
  }
  return { body: body ?? remembered, tail };
}

function requestText(message: Message): string {
  const checkpoint = checkpointOf(message);
  if (checkpoint === undefined) return messageText(message);
  return messageText(
    withParts(
      message,
      message.parts.filter((_, index) => index !== checkpoint.partIndex),
    ),
  );
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

function countAll(messages: readonly Message[], input: CompactPassInput): { rough: number; exact?: number } {
  const rough = messages.reduce((sum, message) => sum + input.counter.countMessage(message), 0);
  if (input.exactCounter === undefined) return { rough };
  return {
    rough,
    exact: messages.reduce(
      (sum, message) => sum + (input.exactCounter as TokenCounter).countMessage(message),
      0,
    ),
  };
}

interface FinishDetails {
  readonly input: CompactPassInput;
  readonly before: { rough: number; exact?: number };
  readonly pruning: PruningReport;
  readonly bounds?: { headEnd: number; tailStart: number };
  readonly dropped?: number;
  readonly errors?: readonly string[];
  readonly aborted?: boolean;
  readonly reason?: string;
  readonly summary?: CompactionReport['summary'];
  readonly summaryBody?: string | undefined;
}

function finish(original: Transcript, candidate: Transcript, details: FinishDetails): CompactPassResult {
  const { input, before } = details;
  let output = candidate;
  let after = countAll(candidate.messages, input);
  const notes: string[] = [];
  let summary = details.summary ?? { source: 'none' as const, calls: 0, tokens: 0, updatedPrevious: false };
  let dropped = details.dropped ?? 0;
  let summaryBody = details.summaryBody ?? input.previousSummary;
  if (candidate !== original && after.rough >= before.rough) {
    notes.push('compaction would not have made the transcript smaller, so it was left unchanged');
    output = original;
    after = before;
    summary = { source: 'none', calls: summary.calls, tokens: 0, updatedPrevious: false };
    dropped = 0;
    summaryBody = input.previousSummary;
  }
  const saved = before.rough - after.rough;
  const exactCounter = input.exactCounter?.name;
  const report: CompactionReport = {
    engine: 'compressor',
    tokensBefore: { ...before, ...(exactCounter === undefined ? {} : { counter: exactCounter }) },
    tokensAfter: { ...after, ...(exactCounter === undefined ? {} : { counter: exactCounter }) },
    messagesBefore: original.messages.length,
    messagesAfter: output.messages.length,
    ...(details.bounds === undefined || output === original ? {} : { boundaries: details.bounds }),
    pruning: output === original ? NO_PRUNING : details.pruning,
    summary,
    dropped,
    errors: details.errors ?? [],
    savings: { tokens: saved, percent: before.rough === 0 ? 0 : (100 * saved) / before.rough },
    madeProgress: output !== original && saved > 0,
    aborted: details.aborted ?? false,
    ...(details.reason === undefined
      ? output === original && notes.length > 0
        ? { reason: notes[0] as string }
        : {}
      : { reason: details.reason }),
    notes,
  };
  return { transcript: output, report, summaryBody };
}
