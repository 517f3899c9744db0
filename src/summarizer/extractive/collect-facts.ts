import { parseArguments } from '../../inspect/artifacts.js';
import { isJsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { ToolCallPart, ToolResultPart } from '../../model/part.js';
import { type ActionFact, describeAction } from './describe-action.js';
import {
  assistantText,
  constraintSentences,
  decisionSentences,
  intentSentences,
  pushUnique,
  realUserText,
} from './sentences.js';

/** A todo item from a todo-list tool call. */
export interface TodoItem {
  readonly content: string;
  readonly status: string;
}

/** Everything the extractive checkpoint is built from, gathered in one pass over the turns. */
export interface SessionFacts {
  readonly actions: readonly ActionFact[];
  /** What the user wrote, per real user message, in order. */
  readonly userRequests: readonly string[];
  readonly constraints: readonly string[];
  readonly decisions: readonly string[];
  /** What the assistant said it would do next, from its last messages. */
  readonly intents: readonly string[];
  /** The latest todo list written by a todo tool. */
  readonly todos: readonly TodoItem[];
  /** User messages with no assistant message after them. */
  readonly pendingAsks: readonly string[];
  /** State lines taken from tool output (working directory, open file, background jobs). */
  readonly stateLines: readonly string[];
  readonly counts: { readonly user: number; readonly assistant: number; readonly tool: number };
}

const STATE_PATTERNS: readonly [RegExp, string][] = [
  [/\(Current directory: ([^)\n]+)\)/, 'Working directory'],
  [/\(Open file: ([^)\n]+)\)/, 'Open file'],
  [/running in background with ID: (\S+)/i, 'Background job'],
];

/**
 * Pairs every tool call with its result. Ids are matched in order, not through a map: some datasets reuse a
 * call id, and each result answers the earliest call with that id still unanswered.
 */
function pairResults(messages: readonly Message[]): Map<ToolCallPart, ToolResultPart> {
  const waiting = new Map<string, ToolCallPart[]>();
  const pairs = new Map<ToolCallPart, ToolResultPart>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        const queue = waiting.get(part.id);
        if (queue === undefined) waiting.set(part.id, [part]);
        else queue.push(part);
      } else if (part.type === 'tool-result') {
        const call = waiting.get(part.callId)?.shift();
        if (call !== undefined) pairs.set(call, part);
      }
    }
  }
  return pairs;
}

function todosOf(argumentsText: string): TodoItem[] | undefined {
  const parsed = parseArguments(argumentsText);
  if (!isJsonObject(parsed) || !Array.isArray(parsed['todos'])) return undefined;
  const out: TodoItem[] = [];
  for (const item of parsed['todos']) {
    if (!isJsonObject(item)) continue;
    const content = item['content'] ?? item['title'] ?? item['task'];
    const status = item['status'];
    if (typeof content === 'string')
      out.push({ content, status: typeof status === 'string' ? status : 'pending' });
  }
  return out;
}

function scanState(text: string, state: Map<string, string>): void {
  for (const [pattern, label] of STATE_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) state.set(label, match[1].trim().replace(/[.,;:]+$/, ''));
  }
}

/** Walks the turns once and gathers the facts of {@link SessionFacts}. */
export function collectFacts(messages: readonly Message[]): SessionFacts {
  const results = pairResults(messages);
  const actions: ActionFact[] = [];
  const userRequests: string[] = [];
  const constraints: string[] = [];
  const decisions: string[] = [];
  const seenConstraints = new Set<string>();
  const seenDecisions = new Set<string>();
  const assistantTexts: string[] = [];
  const state = new Map<string, string>();
  let todos: TodoItem[] = [];
  let pending: string[] = [];
  const counts = { user: 0, assistant: 0, tool: 0 };
  for (const message of messages) {
    if (message.role === 'user') {
      const text = realUserText(message);
      if (text !== undefined) {
        counts.user++;
        userRequests.push(text);
        pending.push(text);
        pushUnique(constraints, constraintSentences(text), seenConstraints);
      }
    } else if (message.role === 'assistant') {
      counts.assistant++;
      pending = [];
      const text = assistantText(message);
      if (text !== '') {
        assistantTexts.push(text);
        pushUnique(decisions, decisionSentences(text), seenDecisions);
      }
      for (const part of message.parts) {
        if (part.type !== 'tool-call') continue;
        actions.push(describeAction(part, results.get(part)));
        todos = todosOf(part.arguments) ?? todos;
      }
    } else if (message.role === 'tool') {
      counts.tool++;
      for (const part of message.parts) {
        if (part.type !== 'tool-result') continue;
        for (const content of part.content) if (content.type === 'text') scanState(content.text, state);
      }
    }
  }
  const intents: string[] = [];
  pushUnique(intents, assistantTexts.slice(-2).flatMap(intentSentences).slice(-3), new Set());
  return {
    actions,
    userRequests,
    constraints,
    decisions,
    intents,
    todos,
    pendingAsks: pending,
    stateLines: [...state].map(([label, value]) => `${label}: ${value}`),
    counts,
  };
}
