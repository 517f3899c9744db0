// src/summarizer/extractive/collect-facts.ts as it was before issue 15's second round, on the reference sentences and
// actions, kept as the oracle of the faster version (its types and unchanged helpers are the module's own).
import { Queue } from '../../../src/model/arrays.js';
import type { Message } from '../../../src/model/message.js';
import { toolResultText } from '../../../src/model/message-helpers.js';
import type { ToolCallPart, ToolResultPart } from '../../../src/model/part.js';
import {
  type PromptFact,
  parenthesized,
  type SessionFacts,
  withoutTrailingPunctuation,
} from '../../../src/summarizer/extractive/collect-facts.js';
import type { ActionFact } from '../../../src/summarizer/extractive/describe-action.js';
import { type LocatedAction, pairFailures } from '../../../src/summarizer/extractive/failures.js';
import {
  type PlanItem,
  planOf as planOfCall,
  trackerSteps,
} from '../../../src/summarizer/extractive/task-state.js';
import { classifyUserMessage } from '../../../src/transforms/user-turns.js';
import { describeAction } from './describe-action-reference.js';
import {
  assistantText,
  constraintSentences,
  correctionOf,
  decisionsAmong,
  intentSentences,
  pushUnique,
  remainingItems,
  splitSentences,
} from './sentences-reference.js';

const STATE_PATTERNS: readonly [(text: string) => string | undefined, string][] = [
  [(text) => parenthesized(text, '(Current directory: '), 'Working directory'],
  [(text) => parenthesized(text, '(Open file: '), 'Open file'],
  [(text) => /running in background with ID: (\S+)/i.exec(text)?.[1], 'Background job'],
  [(text) => /^Switched to (?:a new )?branch '([^'\n]+)'/m.exec(text)?.[1], 'Branch'],
];

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
  const waiting = new Map<string, Queue<ToolCallPart>>();
  const pairs = new Map<ToolCallPart, ToolResultPart>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        const queue = waiting.get(part.id);
        if (queue === undefined) waiting.set(part.id, new Queue([part]));
        else queue.push(part);
      } else if (part.type === 'tool-result') {
        const call = waiting.get(part.callId)?.take();
        if (call !== undefined) pairs.set(call, part);
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

/** The plan as `planOf` read it from the arguments text: a new call object, so they are parsed again. */
function planOf(name: string, argumentsText: string): PlanItem[] | undefined {
  return planOfCall({ type: 'tool-call', id: '', name, arguments: argumentsText });
}

/** Walks the turns once and gathers the facts of {@link SessionFacts}. */
export function collectFacts(messages: readonly Message[]): SessionFacts {
  const results = pairResults(messages);
  const actions: ActionFact[] = [];
  const located: { action: ActionFact; followUp?: string }[] = [];
  const prompts: { text: string; kind: PromptFact['kind']; continuation: boolean; unanswered: boolean }[] =
    [];
  const constraints: string[] = [];
  const decisions: string[] = [];
  const seenConstraints = new Set<string>();
  const seenDecisions = new Set<string>();
  const assistantTexts: string[] = [];
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
        for (const prompt of prompts.slice(answered)) prompt.unanswered = false;
        answered = prompts.length;
        assistantTexts.push(text);
        // Split once: the decisions and the follow-up both read the sentences.
        const sentences = splitSentences(text);
        pushUnique(decisions, decisionsAmong(sentences), seenDecisions);
        for (const match of text.matchAll(CODE_SPAN)) {
          if (named.length < MAX_NAMED) pushUnique(named, [(match[1] as string).trim()], seenNamed);
        }
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
        plan = planOf(part.name, part.arguments) ?? plan;
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
  pushUnique(intents, recent.flatMap(intentSentences).slice(-3), new Set());
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
