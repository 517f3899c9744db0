import { appendAll } from '../../model/arrays.js';
import type { Message } from '../../model/message.js';
import { isCheckpointMessage } from '../../transforms/checkpoint-text.js';
import type { CollapsedElement } from './collapsed-element.js';
import { isRuleLine } from './markers.js';
import { mergeRun, type RunMember } from './merge-run.js';
import type { ElementRef } from './references.js';

/** One output message of the region between the frozen prefix and the protected tail, with where it came from. */
export interface Item {
  readonly message: Message;
  /** Input index when `message` is that input message itself. */
  readonly inputIndex: number | undefined;
  /** Input index of the message this one is (or was rewritten from; the kept one for a folded run). */
  readonly from: number;
  /** Input indices of the earlier assistant messages of a run folded into this one (rule 4). */
  readonly merged?: readonly number[];
  /** Assistant items: input index of the step's assistant message. */
  readonly stepStart: number | undefined;
  /** Assistant items: rule 1 removed every tool message that followed (the next message moves up to it). */
  readonly lostTools: boolean;
}

/**
 * Steps whose tool messages all went and whose assistant message would then sit right before another
 * assistant message it is not folded into (one in the protected tail, behind a system message, a checkpoint,
 * after an unanswered call, or with rule 4 off).
 */
export function stepsToHoldBack(
  items: readonly Item[],
  messages: readonly Message[],
  tailStart: number,
  merging: boolean,
): Set<number> {
  const out = new Set<number>();
  items.forEach((item, index) => {
    if (!item.lostTools || item.stepStart === undefined) return;
    const following = items[index + 1];
    const folded =
      merging &&
      !hasCalls(item.message) &&
      following !== undefined &&
      mergeable(following.message) &&
      mergeable(item.message);
    if (folded) return;
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
export function mergeRuns(
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
      const ref =
        item.stepStart === undefined || fromEarlierPass(original) ? undefined : refAt(item.stepStart);
      return { message: item.message, ref, original };
    });
    const merged = mergeRun(members);
    appendAll(elements, merged.elements);
    counts.mergedAssistant += last - index;
    out.push({
      message: merged.message,
      inputIndex: undefined,
      from: (items[last] as Item).from,
      merged: items.slice(index, last).map((item) => item.from),
      stepStart: undefined,
      lostTools: false,
    });
    index = last + 1;
  }
  return out;
}
