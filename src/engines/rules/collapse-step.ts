import type { Message } from '../../model/message.js';
import { textPart, withParts } from '../../model/message-helpers.js';
import type { Part, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { CollapsedElement } from './collapsed-element.js';
import { TOOL_LINE_PREFIX } from './markers.js';
import { preservedSuffix } from './preserve.js';
import { type ElementRef, formatRef } from './references.js';
import { describeOutcome, type ToolOutcome, toolOutcome } from './tool-outcome.js';
import { type TruncateLimits, truncateToolResult } from './truncate-output.js';

/** What rules 1 and 2 need besides the step itself. */
export interface StepContext {
  readonly messages: readonly Message[];
  /** The reference of the input message at an index. */
  readonly refAt: (index: number) => ElementRef;
  readonly limits: TruncateLimits;
  /** Rule 1 is on. */
  readonly collapse: boolean;
}

/** An assistant step after rules 1 and 2. */
export interface StepRewrite {
  /** The assistant message: the input object itself when no call was collapsed. */
  readonly assistant: Message;
  /** The tool messages left (input objects where unchanged), with the input index each comes from. */
  readonly tools: readonly { readonly message: Message; readonly index: number }[];
  readonly collapsed: number;
  readonly truncated: number;
  readonly elements: readonly CollapsedElement[];
}

interface Answer {
  readonly messageIndex: number;
  readonly result: ToolResultPart;
  readonly repeated: boolean;
}

/**
 * Rules 1 and 2 on one assistant step (the assistant message at `start` and the tool messages up to `end`):
 * every succeeded call answered exactly once in the step becomes a one-line record in place of the call (tool
 * name, salient arguments, outcome, reference, and any path, URL or error line the line would otherwise lose),
 * and its result goes; failed calls stay with their results. Results that stay are truncated by rule 2. With
 * `holdBackLast`, the last collapsible call stays a real call, so the step still ends in a tool message.
 */
export function collapseStep(
  start: number,
  end: number,
  context: StepContext,
  holdBackLast: boolean,
): StepRewrite {
  const { messages } = context;
  const assistant = messages[start] as Message;
  const answers = answersInStep(messages, start, end);
  const idCounts = new Map<string, number>();
  for (const part of assistant.parts)
    if (part.type === 'tool-call') idCounts.set(part.id, (idCounts.get(part.id) ?? 0) + 1);
  const outcomes = new Map<ToolCallPart, { answer: Answer; outcome: ToolOutcome }>();
  if (context.collapse) {
    for (const part of assistant.parts) {
      if (part.type !== 'tool-call' || idCounts.get(part.id) !== 1) continue;
      const answer = answers.get(part.id);
      if (answer === undefined || answer.repeated) continue;
      if (!(messages[answer.messageIndex] as Message).parts.every((item) => item.type === 'tool-result'))
        continue;
      const outcome = toolOutcome(part, answer.result);
      if (!outcome.failed) outcomes.set(part, { answer, outcome });
    }
  }
  if (holdBackLast) {
    const last = [...outcomes.keys()].pop();
    if (last !== undefined) outcomes.delete(last);
  }
  const elements: CollapsedElement[] = [];
  let collapsed = 0;
  const removed = new Set<ToolResultPart>();
  const parts: Part[] = assistant.parts.map((part) => {
    const entry = part.type === 'tool-call' ? outcomes.get(part) : undefined;
    if (part.type !== 'tool-call' || entry === undefined) return part;
    const { answer, outcome } = entry;
    const ref = context.refAt(answer.messageIndex);
    const base = `${TOOL_LINE_PREFIX}${describeOutcome(part, outcome)} · ${formatRef(ref)}`;
    const replaced: Message[] = [
      { role: 'assistant', parts: [part] },
      { role: 'tool', parts: [answer.result] },
    ];
    collapsed++;
    removed.add(answer.result);
    elements.push({
      ref,
      kind: 'pair',
      message: messages[answer.messageIndex] as Message,
      caller: assistant,
    });
    return textPart(`${base}${preservedSuffix(replaced, base)}]`);
  });
  const tools: { message: Message; index: number }[] = [];
  let truncated = 0;
  for (let index = start + 1; index < end; index++) {
    const message = messages[index] as Message;
    let changed = false;
    const kept: Part[] = [];
    for (const part of message.parts) {
      if (part.type === 'tool-result' && removed.has(part)) {
        changed = true;
        continue;
      }
      const cut =
        part.type === 'tool-result'
          ? truncateToolResult(part, context.limits, context.refAt(index))
          : undefined;
      if (cut !== undefined) {
        truncated++;
        changed = true;
        elements.push({ ref: context.refAt(index), kind: 'output', message, caller: assistant });
      }
      kept.push(cut ?? part);
    }
    if (!changed) tools.push({ message, index });
    else if (kept.length > 0) tools.push({ message: withParts(message, kept), index });
  }
  return {
    assistant: collapsed === 0 ? assistant : withParts(assistant, parts),
    tools,
    collapsed,
    truncated,
    elements,
  };
}

/** The first result for each call id among the step's tool messages, noting ids answered more than once. */
function answersInStep(messages: readonly Message[], start: number, end: number): Map<string, Answer> {
  const answers = new Map<string, Answer>();
  for (let index = start + 1; index < end; index++) {
    for (const part of (messages[index] as Message).parts) {
      if (part.type !== 'tool-result') continue;
      const seen = answers.get(part.callId);
      answers.set(
        part.callId,
        seen === undefined
          ? { messageIndex: index, result: part, repeated: false }
          : { ...seen, repeated: true },
      );
    }
  }
  return answers;
}
