import { appendAll } from '../../model/arrays.js';
import type { Message } from '../../model/message.js';
import { messageText, withParts } from '../../model/message-helpers.js';
import type { Part } from '../../model/part.js';
import { hasUserContentBesidesCheckpoint } from '../../transforms/checkpoint-text.js';
import { alignForward } from '../../transforms/tool-groups.js';
import type { RuleCounts } from '../compaction-report.js';
import { collapseStep, type StepContext } from './collapse-step.js';
import type { CollapsedElement } from './collapsed-element.js';
import { messageHash } from './content-hash.js';
import { isSystemMarker } from './markers.js';
import type { ResolvedRuleSettings } from './options.js';
import { protectedTailStart } from './protected-tail.js';
import { type ElementRef, messageLabel, refKey } from './references.js';
import { type Item, mergeRuns, stepsToHoldBack } from './region-items.js';
import { systemMarker } from './system-marker.js';
import { truncateToolResult } from './truncate-output.js';

/**
 * Where a message of a transcript stands in the uncompacted one (the session log): its index there, and, when
 * the message is a rewrite made by an earlier pass, the message it was rewritten from (references name that one).
 */
export interface OriginalPosition {
  readonly index: number;
  readonly original?: Message;
}

/** Options of {@link applyRules}. */
export interface RulesPassOptions {
  readonly settings: ResolvedRuleSettings;
  /** Where input message `index` stands in the uncompacted transcript. @default `{ index }` */
  readonly originalOf?: (index: number) => OriginalPosition;
  /** Input messages before this index are never rewritten (cache-friendly mode). @default 0 */
  readonly frozenUntil?: number;
}

/** The output of one rules pass. */
export interface RulesPassResult {
  /** The input array itself when no rule applied. */
  readonly messages: readonly Message[];
  readonly counts: RuleCounts;
  /** Every element collapsed, with the original its reference names. */
  readonly elements: readonly CollapsedElement[];
  /** Output index where the protected tail starts: everything before it is final in cache-friendly mode. */
  readonly outputTailStart: number;
  /** Per output message: where it stands in the uncompacted transcript (what a later pass continues from). */
  readonly lineage: readonly OriginalPosition[];
  /** Per output message, the input indices it stands for (a folded run's earlier messages, then its own). */
  readonly sources: readonly (readonly number[])[];
}

type Unit =
  | { readonly kind: 'step'; readonly start: number; readonly end: number }
  | { readonly kind: 'single'; readonly index: number };

/**
 * One pass of the deterministic rules over the messages between the frozen prefix and the protected tail:
 * (1) succeeded tool pairs collapse into one-line records, (2) long outputs that stay are cut to head and tail
 * lines, (3) system messages after the first turn(s) shrink to a marker, (4) runs of assistant messages fold
 * into the last one. User messages, the protected tail and everything before `frozenUntil` are never touched;
 * untouched messages are the input objects themselves. A step keeps its last succeeded call as a real call
 * when collapsing it would put two assistant messages in a row (invalid for Anthropic).
 */
export function applyRules(messages: readonly Message[], options: RulesPassOptions): RulesPassResult {
  const { settings } = options;
  const originalOf = options.originalOf ?? ((index: number): OriginalPosition => ({ index }));
  const tailStart = protectedTailStart(messages, settings.protectLastN);
  const regionStart = Math.min(options.frozenUntil ?? 0, tailStart);
  const refs = new Map<number, ElementRef>();
  const refAt = (index: number): ElementRef => {
    let ref = refs.get(index);
    if (ref === undefined) {
      const position = originalOf(index);
      const source = position.original ?? (messages[index] as Message);
      ref = { label: messageLabel(source, position.index), hash: messageHash(source) };
      refs.set(index, ref);
    }
    return ref;
  };
  const context: StepContext = {
    messages,
    refAt,
    limits: {
      maxChars: settings.maxToolOutputChars,
      headLines: settings.truncateHeadLines,
      tailLines: settings.truncateTailLines,
    },
    collapse: settings.keepToolSummary,
  };
  const units = unitsOf(messages, regionStart, tailStart);
  const turns = userTurnsBefore(messages, tailStart);
  const build = (holdBack: ReadonlySet<number>) =>
    buildItems(units, { context, settings, turns, holdBack, refAt });
  let built = build(new Set());
  const holdBack = stepsToHoldBack(built.items, messages, tailStart, settings.collapseConsecutiveAssistant);
  if (holdBack.size > 0) built = build(holdBack);
  const counts = { ...built.counts, heldBack: holdBack.size, mergedAssistant: 0 };
  const elements = [...built.elements];
  const items = settings.collapseConsecutiveAssistant
    ? mergeRuns(built.items, messages, refAt, counts, elements)
    : built.items;
  const unchanged =
    items.length === tailStart - regionStart && items.every((item) => item.inputIndex !== undefined);
  const lineage: OriginalPosition[] = [];
  for (let index = 0; index < regionStart; index++) lineage.push(originalOf(index));
  for (const item of items) {
    const position = originalOf(item.from);
    lineage.push(
      item.inputIndex !== undefined || position.original !== undefined
        ? position
        : { index: position.index, original: messages[item.from] as Message },
    );
  }
  for (let index = tailStart; index < messages.length; index++) lineage.push(originalOf(index));
  const sources: (readonly number[])[] = [
    ...messages.slice(0, regionStart).map((_, index) => [index]),
    ...items.map((item) => [...(item.merged ?? []), item.from]),
    ...messages.slice(tailStart).map((_, offset) => [tailStart + offset]),
  ];
  const output = unchanged
    ? messages
    : [...messages.slice(0, regionStart), ...items.map((item) => item.message), ...messages.slice(tailStart)];
  return {
    messages: output,
    counts: { ...counts, references: new Set(elements.map((element) => refKey(element.ref))).size },
    elements,
    outputTailStart: regionStart + items.length,
    lineage,
    sources,
  };
}

/** The region cut into assistant steps (an assistant message and its tool messages) and single messages. */
function unitsOf(messages: readonly Message[], start: number, end: number): Unit[] {
  const units: Unit[] = [];
  let index = start;
  while (index < end) {
    if (messages[index]?.role === 'assistant') {
      const stepEnd = Math.min(end, alignForward(messages, index + 1));
      units.push({ kind: 'step', start: index, end: stepEnd });
      index = stepEnd;
    } else units.push({ kind: 'single', index: index++ });
  }
  return units;
}

/** For every index up to `end`, how many user messages with the user's own words come before it. */
function userTurnsBefore(messages: readonly Message[], end: number): number[] {
  const out: number[] = [];
  let seen = 0;
  for (let index = 0; index < end; index++) {
    out.push(seen);
    const message = messages[index] as Message;
    if (message.role === 'user' && hasUserContentBesidesCheckpoint(message)) seen++;
  }
  return out;
}

interface BuildInput {
  readonly context: StepContext;
  readonly settings: ResolvedRuleSettings;
  readonly turns: readonly number[];
  readonly holdBack: ReadonlySet<number>;
  readonly refAt: (index: number) => ElementRef;
}

function buildItems(units: readonly Unit[], input: BuildInput) {
  const { context, settings } = input;
  const messages = context.messages;
  const items: Item[] = [];
  const elements: CollapsedElement[] = [];
  const counts = { collapsedPairs: 0, truncatedOutputs: 0, droppedSystem: 0 };
  for (const unit of units) {
    if (unit.kind === 'step') {
      const rewrite = collapseStep(unit.start, unit.end, context, input.holdBack.has(unit.start));
      const assistant = messages[unit.start] as Message;
      items.push({
        message: rewrite.assistant,
        inputIndex: rewrite.assistant === assistant ? unit.start : undefined,
        from: unit.start,
        stepStart: unit.start,
        lostTools: rewrite.tools.length === 0 && unit.end > unit.start + 1,
      });
      for (const tool of rewrite.tools) {
        items.push({
          message: tool.message,
          inputIndex: tool.message === messages[tool.index] ? tool.index : undefined,
          from: tool.index,
          stepStart: undefined,
          lostTools: false,
        });
      }
      counts.collapsedPairs += rewrite.collapsed;
      counts.truncatedOutputs += rewrite.truncated;
      appendAll(elements, rewrite.elements);
      continue;
    }
    const index = unit.index;
    const message = messages[index] as Message;
    let next = message;
    if (
      message.role === 'system' &&
      settings.dropSystemAfterTurn > 0 &&
      (input.turns[index] ?? 0) >= settings.dropSystemAfterTurn &&
      !isSystemMarker(messageText(message))
    ) {
      next = systemMarker(message, input.refAt(index));
      counts.droppedSystem++;
      elements.push({ ref: input.refAt(index), kind: 'system', message });
    } else if (message.role === 'tool') {
      next = truncateOrphanResults(message, index, input, elements);
      if (next !== message) counts.truncatedOutputs++;
    }
    items.push({
      message: next,
      inputIndex: next === message ? index : undefined,
      from: index,
      stepStart: undefined,
      lostTools: false,
    });
  }
  return { items, elements, counts };
}

/** Rule 2 on a tool message that follows no assistant step of the region (its call is elsewhere or gone). */
function truncateOrphanResults(
  message: Message,
  index: number,
  input: BuildInput,
  elements: CollapsedElement[],
): Message {
  let changed = false;
  const parts: Part[] = message.parts.map((part) => {
    if (part.type !== 'tool-result') return part;
    const cut = truncateToolResult(part, input.context.limits, input.refAt(index));
    if (cut === undefined) return part;
    changed = true;
    return cut;
  });
  if (!changed) return message;
  elements.push({ ref: input.refAt(index), kind: 'output', message });
  return withParts(message, parts);
}
