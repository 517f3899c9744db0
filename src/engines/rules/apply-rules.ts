import type { Message } from '../../model/message.js';
import { messageText, withParts } from '../../model/message-helpers.js';
import type { Part } from '../../model/part.js';
import { hasUserContentBesidesCheckpoint, isCheckpointMessage } from '../../transforms/checkpoint-text.js';
import { alignForward } from '../../transforms/tool-groups.js';
import type { RuleCounts } from '../compaction-report.js';
import type { CollapsedElement } from './collapsed-element.js';
import { collapseStep, type StepContext } from './collapse-step.js';
import { messageHash } from './content-hash.js';
import { isRuleLine, isSystemMarker } from './markers.js';
import { mergeRun, type RunMember } from './merge-run.js';
import type { ResolvedRuleSettings } from './options.js';
import { protectedTailStart } from './protected-tail.js';
import { type ElementRef, messageLabel, refKey } from './references.js';
import { systemMarker } from './system-marker.js';
import { truncateToolResult } from './truncate-output.js';

/** Options of {@link applyRules}. */
export interface RulesPassOptions {
  readonly settings: ResolvedRuleSettings;
  /** Index of input message `index` in the uncompacted transcript (the session log). @default the index itself */
  readonly originalIndex?: (index: number) => number;
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
  /** Per output message: its index in the uncompacted transcript when it is an unchanged input message, else -1. */
  readonly lineage: readonly number[];
}

type Unit =
  | { readonly kind: 'step'; readonly start: number; readonly end: number }
  | { readonly kind: 'single'; readonly index: number };

interface Item {
  readonly message: Message;
  /** Input index when `message` is that input message itself. */
  readonly inputIndex: number | undefined;
  /** Assistant items: input index of the step's assistant message. */
  readonly stepStart: number | undefined;
  /** Assistant items: rule 1 collapsed calls and none is left. */
  readonly lostAllCalls: boolean;
}

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
  const originalIndex = options.originalIndex ?? ((index: number) => index);
  const tailStart = protectedTailStart(messages, settings.protectLastNTurns);
  const regionStart = Math.min(options.frozenUntil ?? 0, tailStart);
  const refs = new Map<number, ElementRef>();
  const refAt = (index: number): ElementRef => {
    let ref = refs.get(index);
    if (ref === undefined) {
      const message = messages[index] as Message;
      ref = { label: messageLabel(message, originalIndex(index)), hash: messageHash(message) };
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
  const lineage: number[] = [];
  for (let index = 0; index < regionStart; index++) lineage.push(originalIndex(index));
  for (const item of items) lineage.push(item.inputIndex === undefined ? -1 : originalIndex(item.inputIndex));
  for (let index = tailStart; index < messages.length; index++) lineage.push(originalIndex(index));
  const output = unchanged
    ? messages
    : [...messages.slice(0, regionStart), ...items.map((item) => item.message), ...messages.slice(tailStart)];
  return {
    messages: output,
    counts: { ...counts, references: new Set(elements.map((element) => refKey(element.ref))).size },
    elements,
    outputTailStart: regionStart + items.length,
    lineage,
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
        stepStart: unit.start,
        lostAllCalls: rewrite.collapsed > 0 && !rewrite.callsLeft,
      });
      for (const tool of rewrite.tools) {
        let at: number | undefined;
        for (let probe = unit.start + 1; probe < unit.end && at === undefined; probe++)
          if (messages[probe] === tool) at = probe;
        items.push({
          message: tool,
          inputIndex: at,
          stepStart: undefined,
          lostAllCalls: false,
        });
      }
      counts.collapsedPairs += rewrite.collapsed;
      counts.truncatedOutputs += rewrite.truncated;
      elements.push(...rewrite.elements);
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
      stepStart: undefined,
      lostAllCalls: false,
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

/**
 * Steps whose assistant message lost every call and would then sit right before another assistant message it
 * is not folded into (one in the protected tail, behind a system message, a checkpoint, or with rule 4 off).
 */
function stepsToHoldBack(
  items: readonly Item[],
  messages: readonly Message[],
  tailStart: number,
  merging: boolean,
): Set<number> {
  const out = new Set<number>();
  items.forEach((item, index) => {
    if (!item.lostAllCalls || item.stepStart === undefined) return;
    const following = items[index + 1];
    if (merging && following !== undefined && mergeable(following.message) && mergeable(item.message)) return;
    let next: Message | undefined;
    for (let at = index + 1; at < items.length && next === undefined; at++) {
      const message = (items[at] as Item).message;
      if (message.role !== 'system') next = message;
    }
    for (let at = tailStart; at < messages.length && next === undefined; at++) {
      const message = messages[at] as Message;
      if (message.role !== 'system') next = message;
    }
    if (next?.role === 'assistant') out.add(item.stepStart);
  });
  return out;
}

function mergeable(message: Message): boolean {
  return message.role === 'assistant' && !isCheckpointMessage(message);
}

function hasCalls(message: Message): boolean {
  return message.parts.some((part) => part.type === 'tool-call');
}

/** True when the message was written by an earlier pass (it carries rule lines). */
function fromEarlierPass(message: Message): boolean {
  return message.parts.some(
    (part) => part.type === 'text' && part.text.includes('ref=') && part.text.split('\n').some(isRuleLine),
  );
}

/** Rule 4 over the built items: each run of consecutive assistant messages becomes its last message. */
function mergeRuns(
  items: readonly Item[],
  messages: readonly Message[],
  refAt: (index: number) => ElementRef,
  counts: { mergedAssistant: number },
  elements: CollapsedElement[],
): Item[] {
  const out: Item[] = [];
  let index = 0;
  while (index < items.length) {
    const first = items[index] as Item;
    let last = index;
    if (mergeable(first.message)) {
      // A message that still makes calls ends its run: dropping it would orphan its results.
      while (
        last + 1 < items.length &&
        mergeable((items[last + 1] as Item).message) &&
        !hasCalls((items[last] as Item).message)
      ) {
        last++;
      }
    }
    if (last === index) {
      out.push(first);
      index++;
      continue;
    }
    const members: RunMember[] = items.slice(index, last + 1).map((item) => {
      const original = messages[item.stepStart ?? -1] ?? item.message;
      const ref = item.stepStart === undefined || fromEarlierPass(original) ? undefined : refAt(item.stepStart);
      return { message: item.message, ref, original };
    });
    const merged = mergeRun(members);
    elements.push(...merged.elements);
    counts.mergedAssistant += last - index;
    out.push({ message: merged.message, inputIndex: undefined, stepStart: undefined, lostAllCalls: false });
    index = last + 1;
  }
  return out;
}
