import { Queue } from '../../model/arrays.js';
import type { Message } from '../../model/message.js';
import { toolResultText } from '../../model/message-helpers.js';
import type { ToolCallPart, ToolResultPart } from '../../model/part.js';
import { classifyUserMessage, type UserTextKind } from '../../transforms/user-turns.js';
import { type ActionFact, describeAction } from './describe-action.js';
import { type FailureFix, type LocatedAction, pairFailures } from './failures.js';
import {
  assistantText,
  constraintSentences,
  correctionOf,
  decisionsAmong,
  intentsAmong,
  pushUnique,
  remainingItems,
  splitSentences,
} from './sentences.js';
import { type PlanItem, planOf, type TrackerStep, trackerSteps } from './task-state.js';

/** One message the person wrote, verbatim. */
export interface PromptFact {
  readonly text: string;
  readonly kind: Extract<UserTextKind, 'prompt' | 'command' | 'shell'>;
  /** A bare go-ahead or acknowledgement. */
  readonly continuation: boolean;
  /** No assistant text answered it within these turns. */
  readonly unanswered: boolean;
}

type PromptRecord = { -readonly [Key in keyof PromptFact]: PromptFact[Key] };

/** Everything the extractive checkpoint is built from, gathered in one pass over the turns. */
export interface SessionFacts {
  readonly prompts: readonly PromptFact[];
  readonly actions: readonly ActionFact[];
  readonly failures: readonly FailureFix[];
  readonly constraints: readonly string[];
  readonly decisions: readonly string[];
  /** What the assistant said it would do next, from its last messages, newest last. */
  readonly intents: readonly string[];
  /** The newest plan a plan tool wrote in these turns. */
  readonly plan: readonly PlanItem[] | undefined;
  /** Items the assistant listed as still to do ("Still need to:", "Remaining:"), from its last messages. */
  readonly remaining: readonly string[];
  readonly tracker: readonly TrackerStep[];
  /** State lines taken from tool output (working directory, open file, background jobs, last test run). */
  readonly stateLines: readonly string[];
  /** Code spans the assistant named in its text (`build_index/1`, `Access.get/2`), in order. */
  readonly named: readonly string[];
  readonly counts: { readonly user: number; readonly assistant: number; readonly tool: number };
}

const STATE_PATTERNS: readonly [(text: string) => string | undefined, string][] = [
  [(text) => parenthesized(text, '(Current directory: '), 'Working directory'],
  [(text) => parenthesized(text, '(Open file: '), 'Open file'],
  // Every match holds `D: ` or `d: ` (the regex ignores case only in letters): a search for those two is
  // cheaper than the regex over an output that has neither.
  [
    (text) =>
      text.includes('D: ') || text.includes('d: ')
        ? /running in background with ID: (\S+)/i.exec(text)?.[1]
        : undefined,
    'Background job',
  ],
  [
    (text) =>
      text.includes('Switched to ')
        ? /^Switched to (?:a new )?branch '([^'\n]+)'/m.exec(text)?.[1]
        : undefined,
    'Branch',
  ],
];

/**
 * What the first `open` followed by a non-empty run without `)` or line feed and then `)` holds, as
 * `/\(Open file: ([^)\n]+)\)/` captures it: that regex rescans the rest of the line from every opening (quadratic),
 * where an unclosed opening rules out every other opening before the same line end.
 */
export function parenthesized(text: string, open: string): string | undefined {
  let from = 0;
  for (;;) {
    const at = text.indexOf(open, from);
    if (at === -1) return undefined;
    const start = at + open.length;
    let end = start;
    while (end < text.length && text[end] !== ')' && text[end] !== '\n') end++;
    if (text[end] !== ')') from = end;
    else if (end > start) return text.slice(start, end);
    else from = at + 1;
  }
}

/** The text without its trailing run of `.,;:`, as `.replace(/[.,;:]+$/, '')` but linear on long runs inside. */
export function withoutTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && '.,;:'.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}
const TEST_COMMAND =
  /\b(?:test|tests|pytest|jest|vitest|mocha|rspec|phpunit|check|lint|credo|dialyzer|clippy|build|compile|tsc|typecheck|make)\b/;
const CODE_SPAN = /`([^`\n]{2,120})`/g;
const MAX_NAMED = 400;
const FOLLOW_UP_CHARS = 240;

/**
 * Pairs every tool call with its result. Ids are matched in order, not through a map: some datasets reuse a
 * call id, and each result answers the earliest call with that id still unanswered.
 */
function pairResults(messages: readonly Message[]): Map<ToolCallPart, ToolResultPart> {
  // The call waiting under an id, or a queue of them once a second call reuses the id before a result came:
  // most ids have one call, answered next, and need neither a queue nor an entry after their result.
  const waiting = new Map<string, ToolCallPart | Queue<ToolCallPart>>();
  const pairs = new Map<ToolCallPart, ToolResultPart>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        const held = waiting.get(part.id);
        if (held === undefined) waiting.set(part.id, part);
        else if (held instanceof Queue) held.push(part);
        else waiting.set(part.id, new Queue([held, part]));
      } else if (part.type === 'tool-result') {
        const held = waiting.get(part.callId);
        if (held === undefined) continue;
        if (held instanceof Queue) {
          const call = held.take();
          if (call !== undefined) pairs.set(call, part);
        } else {
          waiting.delete(part.callId);
          pairs.set(held, part);
        }
      }
    }
  }
  return pairs;
}

function scanState(text: string, state: Map<string, string>): void {
  for (const [find, label] of STATE_PATTERNS) {
    const value = find(text);
    if (value !== undefined) state.set(label, withoutTrailingPunctuation(value.trim()));
  }
}

/** Adds the code spans of a text to `named`, up to {@link MAX_NAMED}: the scan stops there. */
function collectNamed(text: string, named: string[], seen: Set<string>): void {
  CODE_SPAN.lastIndex = 0;
  for (let match = CODE_SPAN.exec(text); match !== null; match = CODE_SPAN.exec(text)) {
    pushUnique(named, [(match[1] as string).trim()], seen);
    if (named.length >= MAX_NAMED) break;
  }
}

/** The last test, lint or build command and what it reported. */
function lastCheck(actions: readonly ActionFact[]): string | undefined {
  for (let index = actions.length - 1; index >= 0; index--) {
    const action = actions[index] as ActionFact;
    if (action.command === undefined || !TEST_COMMAND.test(action.command)) continue;
    const summary = action.summaryLine === undefined ? '' : ` (${action.summaryLine})`;
    return `Last check: \`${action.command}\` — ${action.shortOutcome}${summary}`;
  }
  return undefined;
}

/** Walks the turns once and gathers the facts of {@link SessionFacts}. */
export function collectFacts(messages: readonly Message[]): SessionFacts {
  const results = pairResults(messages);
  const actions: ActionFact[] = [];
  const located: { action: ActionFact; followUp?: string }[] = [];
  const prompts: PromptRecord[] = [];
  const constraints: string[] = [];
  const decisions: string[] = [];
  const seenConstraints = new Set<string>();
  const seenDecisions = new Set<string>();
  const assistantTexts: string[] = [];
  // The sentences of the last two assistant texts, which its intents are read from.
  let recentSentences: readonly (readonly string[])[] = [];
  const named: string[] = [];
  const seenNamed = new Set<string>();
  const state = new Map<string, string>();
  let plan: PlanItem[] | undefined;
  let awaitingFollowUp: { action: ActionFact; followUp?: string }[] = [];
  const counts = { user: 0, assistant: 0, tool: 0 };
  // Prompts before this index are answered already: each is marked once, not at every later answer.
  let answered = 0;
  for (const message of messages) {
    if (message.role === 'user') {
      const turn = classifyUserMessage(message);
      if (turn === undefined || turn.text.trim() === '') continue;
      if (turn.kind !== 'prompt' && turn.kind !== 'command' && turn.kind !== 'shell') continue;
      counts.user++;
      const earlier = prompts.length;
      prompts.push({ text: turn.text, kind: turn.kind, continuation: turn.continuation, unanswered: true });
      if (turn.kind !== 'prompt') continue;
      pushUnique(constraints, constraintSentences(turn.text), seenConstraints);
      const correction = earlier > 0 ? correctionOf(turn.text) : undefined;
      if (correction !== undefined) pushUnique(constraints, [correction], seenConstraints);
    } else if (message.role === 'assistant') {
      counts.assistant++;
      const text = assistantText(message);
      if (text !== '') {
        for (let index = answered; index < prompts.length; index++)
          (prompts[index] as PromptRecord).unanswered = false;
        answered = prompts.length;
        assistantTexts.push(text);
        // Split once: the decisions, the follow-up and the intents all read the sentences.
        const sentences = splitSentences(text);
        recentSentences = [...recentSentences.slice(-1), sentences];
        pushUnique(decisions, decisionsAmong(sentences), seenDecisions);
        if (named.length < MAX_NAMED && text.includes('`')) collectNamed(text, named, seenNamed);
        const followUp = sentences.slice(0, 2).join(' ').slice(0, FOLLOW_UP_CHARS);
        for (const waiting of awaitingFollowUp) if (followUp !== '') waiting.followUp = followUp;
        awaitingFollowUp = [];
      }
      for (const part of message.parts) {
        if (part.type !== 'tool-call') continue;
        const action = describeAction(part, results.get(part));
        actions.push(action);
        const entry = { action };
        located.push(entry);
        if (action.failed) awaitingFollowUp.push(entry);
        plan = planOf(part) ?? plan;
      }
    } else if (message.role === 'tool') {
      counts.tool++;
      for (const part of message.parts) {
        if (part.type === 'tool-result') scanState(toolResultText(part.content), state);
      }
    }
  }
  const stateLines = [...state].map(([label, value]) => `${label}: ${value}`);
  const check = lastCheck(actions);
  if (check !== undefined) stateLines.push(check);
  const recent = assistantTexts.slice(-2);
  const intents: string[] = [];
  pushUnique(intents, recentSentences.flatMap(intentsAmong).slice(-3), new Set());
  const remaining: string[] = [];
  pushUnique(remaining, recent.flatMap(remainingItems), new Set());
  return {
    prompts,
    actions,
    failures: pairFailures(located as LocatedAction[]),
    constraints,
    decisions,
    intents,
    plan,
    remaining,
    tracker: trackerSteps(actions),
    stateLines,
    named,
    counts,
  };
}
