import { extractArtifacts } from '../../inspect/artifacts.js';
import type { Message } from '../../model/message.js';
import type { RedactOptions } from '../../redact/options.js';
import { createRedactor } from '../../redact/redactor.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { checkpointOf } from '../../transforms/checkpoint-text.js';
import { countOf } from '../../transforms/text-facts.js';
import { isContinuation } from '../../transforms/user-turns.js';
import { defaultRedactor } from '../default-redactor.js';
import type { Summarizer, SummaryRequest, SummaryResult } from '../summarizer.js';
import { collectFacts } from './collect-facts.js';
import { type EmptyTokens, emptyTokens, type FittedItems, fitItems, titleOf } from './fit-items.js';
import { type Item, PRIORITY } from './items.js';
import { type PreviousCheckpoint, readPreviousCheckpoint } from './previous-checkpoint.js';
import { recordItems } from './record-items.js';
import { currentRequestOf, requestItems, stateItems } from './request-items.js';

/** Options of {@link createExtractiveSummarizer}. */
export interface ExtractiveSummarizerOptions {
  /** Name shown in reports. @default 'extractive' */
  readonly name?: string;
  /**
   * Redaction of the checkpoint text, or `false` to keep it as extracted (the turns it comes from are not
   * redacted either). @default {} (built-in rules)
   */
  readonly redact?: RedactOptions | false;
  /**
   * Share of the turns' own tokens (previous checkpoint included) the checkpoint stays under, whatever the
   * target, as long as the requests, the task state and every artifact still fit: a checkpoint larger than
   * what it replaces saves nothing. @default 0.6
   */
  readonly maxInputShare?: number;
}

/**
 * Takes checkpoint messages out of the turns (the contract says there are none, but a transcript compacted by
 * another tool may carry one): the last one becomes the previous summary when none was given; text merged into
 * the same message stays a turn.
 */
function separateCheckpoints(request: SummaryRequest): { messages: readonly Message[]; previous?: string } {
  let found: string | undefined;
  const messages: Message[] = [];
  for (const message of request.messages) {
    const checkpoint = checkpointOf(message);
    if (checkpoint === undefined) {
      messages.push(message);
      continue;
    }
    found = checkpoint.body;
    const rest = checkpoint.rest;
    const others = message.parts.filter((_, index) => index !== checkpoint.partIndex);
    if (rest !== undefined || others.length > 0) {
      messages.push({
        ...message,
        parts: [...(rest === undefined ? [] : [{ type: 'text' as const, text: rest }]), ...others],
      });
    }
  }
  const previous = request.previousSummary ?? found;
  return previous === undefined ? { messages } : { messages, previous };
}

function focusTermsOf(topic: string | undefined): string[] {
  if (topic === undefined) return [];
  return topic
    .toLowerCase()
    .split(/[^\p{L}\p{N}_./-]+/u)
    .filter((term) => term.length >= 3);
}

/**
 * A summarizer that needs no model: it writes a handoff from the turns themselves. The person's current and
 * original requests and every message they wrote, verbatim (harness text told apart); the plan and task state
 * (todo and plan tools, task trackers, commits); the next step; every file changed, created or modified, with
 * the identifiers the edits touched; each failure with what fixed it; corrections and decisions; and, as far as
 * the budget allows, every path, URL, command, error line and tool name, then a numbered action log. A previous
 * checkpoint is updated, whoever wrote it: condense's sections are merged, another tool's summary is carried
 * forward. Content is given up in order of priority to meet `targetTokens` (a note says what went), and never
 * beyond `maxTokens`. Deterministic, never calls anything, `calls` is 0.
 */
export function createExtractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const redactor =
    options.redact === false
      ? undefined
      : options.redact === undefined
        ? defaultRedactor()
        : createRedactor(options.redact);
  const name = options.name ?? 'extractive';
  const share = options.maxInputShare ?? 0.6;
  return {
    name,
    kind: 'extractive',
    summarize(request: SummaryRequest): Promise<SummaryResult> {
      return Promise.resolve(summarizeExtractively(request, redactor, share));
    },
  };
}

function summarizeExtractively(
  request: SummaryRequest,
  redactor: ReturnType<typeof createRedactor> | undefined,
  share: number,
): SummaryResult {
  const { messages, previous } = separateCheckpoints(request);
  const prior: PreviousCheckpoint | undefined =
    previous === undefined || previous.trim() === '' ? undefined : readPreviousCheckpoint(previous);
  const facts = collectFacts(messages);
  const target = Math.max(1, Math.floor(request.targetTokens));
  const latest = request.latestUserRequest;
  const count = (text: string) => request.counter.countText(text);
  const requestInput = {
    facts,
    previous: prior,
    latestUserRequest: latest,
    latestIsContinuation: latest !== undefined && isContinuation(latest),
    userRequests: request.userRequests ?? [],
    targetTokens: target,
    count,
  };
  const items: Item[] = [
    ...requestItems(requestInput),
    ...stateItems({ ...requestInput, current: currentRequestOf(requestInput) }),
    ...recordItems({
      facts,
      artifacts: extractArtifacts(messages),
      previous: prior,
      focusTerms: focusTermsOf(request.focusTopic),
      targetTokens: target,
      count,
    }),
  ];
  if (request.focusTopic !== undefined && request.focusTopic.trim() !== '') {
    items.push({
      section: 'nextStep',
      text: `Focus requested: ${request.focusTopic.trim().slice(0, 200)}`,
      priority: PRIORITY.state,
      weight: -1,
      order: 100,
    });
  }
  const input =
    messages.reduce((sum, message) => sum + request.counter.countMessage(message), 0) +
    (previous === undefined ? 0 : count(previous));
  const empty = emptyTokensOf(request.counter);
  const { budget, proseAllowed } = budgetOf(items, target, input * share, request.maxTokens, count, empty);
  // Without prose, lines demoted for their section's share still get their chance at what the budget leaves
  // (and a note when they do not fit): they are the record, not prose.
  const fitted = fitItems(
    proseAllowed
      ? items
      : items.filter(
          (item) =>
            item.artifact === true || item.priority <= PRIORITY.artifact || item.demotedFrom !== undefined,
        ),
    budget,
    count,
    empty,
  );
  const text = redactor === undefined ? fitted.text : redactor.text(fitted.text).text;
  const notes: string[] = [];
  const fit = countOf(budget, 'token');
  if (fitted.droppedArtifacts > 0)
    notes.push(`${countOf(fitted.droppedArtifacts, 'artifact')} left out to fit ${fit}`);
  if (fitted.requestLeftOut) notes.push(`the request texts were left out to fit ${fit}`);
  const lines = linesNote(fitted);
  if (lines !== undefined) notes.push(`${lines} left out to fit ${fit}`);
  if (fitted.tokens > target)
    notes.push(`checkpoint is ${countOf(fitted.tokens, 'token')}, over the ${target}-token target`);
  return { text, source: 'extractive', calls: 0, ...(notes.length === 0 ? {} : { notes }) };
}

/**
 * The empty checkpoint's tokens by counter: every pass with one counter (an engine's) fits against them, and a
 * counter gives one text one count.
 */
const EMPTY_TOKENS = new WeakMap<TokenCounter, EmptyTokens>();

function emptyTokensOf(counter: TokenCounter): EmptyTokens {
  const known = EMPTY_TOKENS.get(counter);
  if (known !== undefined) return known;
  const tokens = emptyTokens((text) => counter.countText(text));
  EMPTY_TOKENS.set(counter, tokens);
  return tokens;
}

/** `3 lines (Task State 1, Files Changed 2)`: the record lines the fitter left out, by section. */
function linesNote(fitted: FittedItems): string | undefined {
  let total = 0;
  const sections: string[] = [];
  for (const [section, lines] of fitted.droppedLines) {
    total += lines;
    sections.push(`${titleOf(section)} ${lines}`);
  }
  return total === 0 ? undefined : `${countOf(total, 'line')} (${sections.join(', ')})`;
}

/**
 * Tokens the checkpoint may use: the target, lowered to a share of the turns it replaces (a checkpoint larger
 * than what it replaces saves nothing), but never below what the requests, task state, record and exact
 * strings take; when that floor is what sets the budget, prose and the action log are left out entirely.
 * `maxTokens` caps everything.
 */
function budgetOf(
  items: readonly Item[],
  target: number,
  ceiling: number,
  maxTokens: number | undefined,
  count: (text: string) => number,
  empty: EmptyTokens,
): { budget: number; proseAllowed: boolean } {
  let budget = target;
  let proseAllowed = true;
  if (ceiling < target) {
    let essential = empty.full;
    for (const item of items) {
      if (item.artifact === true || item.priority <= PRIORITY.artifact) essential += count(item.text) + 1;
    }
    budget = Math.min(target, Math.max(Math.floor(ceiling), essential));
    proseAllowed = ceiling > essential;
  }
  // However small the target, the current request is worth its few tokens: only the hard cap may leave it out.
  let floor = empty.compact;
  for (const item of items) {
    if (item.section !== 'currentRequest' || item.priority !== PRIORITY.request) continue;
    const renderings = [item.text, ...(item.alternatives ?? [])].map((text) => count(text) + 1);
    floor += Math.min(...renderings);
  }
  budget = Math.max(budget, floor);
  const capped = maxTokens === undefined ? budget : Math.max(1, Math.min(budget, Math.floor(maxTokens)));
  return { budget: capped, proseAllowed };
}
