import type { Message } from '../model/message.js';
import { textPart, withParts } from '../model/message-helpers.js';
import type { Role } from '../model/role.js';

/** How the checkpoint was put between head and tail. */
export type CheckpointPlacement = 'user' | 'assistant' | 'merged';

/** Result of {@link placeCheckpoint}. */
export interface PlacedCheckpoint {
  readonly messages: Message[];
  readonly placement: CheckpointPlacement;
  /** Index of the message that carries the checkpoint. */
  readonly index: number;
}

/**
 * Puts checkpoint text between the kept head and tail so the result stays valid for every provider: a
 * standalone user message when the neighbours allow it, else a standalone assistant message, else the text
 * becomes the first part of the tail's first message (after the thinking an assistant message starts with;
 * its own parts follow untouched, so a user request there stays verbatim and after the checkpoint). A run of tool messages followed by a user message is one user turn
 * on Anthropic's wire, which is why a user checkpoint may follow tool results.
 */
export function placeCheckpoint(
  head: readonly Message[],
  checkpointText: string,
  tail: readonly Message[],
  marker: Message['meta'] = { condense: { checkpoint: true } },
): PlacedCheckpoint {
  const before = conversationRole(head[head.length - 1]);
  const after = conversationRole(tail[0]);
  if (userFits(before, after)) return standalone('user', head, checkpointText, tail, marker);
  if (assistantFits(before, after)) return standalone('assistant', head, checkpointText, tail, marker);
  const first = tail[0];
  if (first === undefined)
    return standalone(before === 'assistant' ? 'user' : 'assistant', head, checkpointText, tail, marker);
  // Anthropic wants an assistant message's thinking first: the checkpoint goes after leading reasoning parts.
  let lead = 0;
  while (first.role === 'assistant' && first.parts[lead]?.type === 'reasoning') lead++;
  const merged = withParts(first, [
    ...first.parts.slice(0, lead),
    textPart(checkpointText),
    ...first.parts.slice(lead),
  ]);
  const meta = { ...merged.meta, condense: { ...merged.meta?.condense, checkpoint: true, merged: true } };
  return {
    messages: [...head, { ...merged, meta }, ...tail.slice(1)],
    placement: 'merged',
    index: head.length,
  };
}

// A module function, not a closure: tsx keeps names, and naming a closure costs a defineProperty per call.
function standalone(
  role: 'user' | 'assistant',
  head: readonly Message[],
  checkpointText: string,
  tail: readonly Message[],
  marker: Message['meta'],
): PlacedCheckpoint {
  return {
    messages: [
      ...head,
      { role, parts: [textPart(checkpointText)], ...(marker ? { meta: marker } : {}) },
      ...tail,
    ],
    placement: role,
    index: head.length,
  };
}

type Neighbour = Role | 'none';

function conversationRole(message: Message | undefined): Neighbour {
  return message === undefined ? 'none' : message.role;
}

function userFits(before: Neighbour, after: Neighbour): boolean {
  return before !== 'user' && (after === 'none' || after === 'assistant');
}

function assistantFits(before: Neighbour, after: Neighbour): boolean {
  return (before === 'user' || before === 'tool') && (after === 'none' || after === 'user');
}
