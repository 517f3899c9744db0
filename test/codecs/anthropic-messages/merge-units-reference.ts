/*
 * mergeUnits as it was before it merged a run of units at once (2026-11-26): it merged them pairwise, copying the
 * blocks so far at each step, which was quadratic in a response with many parallel calls. Kept as the reference
 * the property test holds the linear version to. Not part of condense.
 */

import type { Unit } from '../../../src/codecs/anthropic-messages/encode-unit.js';

/**
 * Merges neighbouring units of the same role into one wire message. Units read from the same wire message
 * (same `group`) merge back in their recorded block order; units read from different wire messages stay
 * apart (the original structure is kept); a unit from elsewhere merges with its neighbour so roles alternate,
 * with tool_result blocks first in a user message as Anthropic requires.
 */
export function referenceMergeUnits(units: readonly Unit[]): Unit[] {
  const out: Unit[] = [];
  for (const next of units) {
    const previous = out[out.length - 1];
    if (previous !== undefined && previous.role === next.role && canMerge(previous, next)) {
      out[out.length - 1] = merge(previous, next);
    } else out.push(next);
  }
  return out;
}

function canMerge(left: Unit, right: Unit): boolean {
  if ('verbatim' in left || 'verbatim' in right) return false;
  if (left.group === undefined || right.group === undefined) return true;
  return left.group === right.group;
}

function merge(left: Unit, right: Unit): Unit {
  const sameGroup = left.group !== undefined && left.group === right.group;
  const { blocks, kinds } =
    sameGroup && left.order !== undefined
      ? interleave(left, right, left.order)
      : toolResultsFirst([...left.blocks, ...right.blocks], left.kinds + right.kinds, left.role === 'user');
  const intact = left.intact !== undefined && left.intact === right.intact ? { intact: left.intact } : {};
  const extra = left.extra ?? right.extra;
  const group = sameGroup ? { group: left.group } : {};
  return {
    role: left.role,
    blocks,
    kinds,
    split: left.split,
    members: left.members + right.members,
    ...group,
    ...intact,
    ...(extra === undefined ? {} : { extra }),
    ...(left.unknownRole === true ? { unknownRole: true } : {}),
  };
}

function interleave(left: Unit, right: Unit, order: string): { blocks: unknown[]; kinds: string } {
  const combined = [...left.blocks, ...right.blocks];
  const kinds = left.kinds + right.kinds;
  const tools = combined.filter((_, index) => kinds[index] === 't');
  const rest = combined.filter((_, index) => kinds[index] !== 't');
  if (
    tools.length + rest.length !== order.length ||
    [...order].filter((kind) => kind === 't').length !== tools.length
  ) {
    return toolResultsFirst(combined, kinds, true);
  }
  let tool = 0;
  let other = 0;
  const blocks = [...order].map((kind) => (kind === 't' ? tools[tool++] : rest[other++]));
  return { blocks, kinds: order };
}

function toolResultsFirst(
  blocks: unknown[],
  kinds: string,
  user: boolean,
): { blocks: unknown[]; kinds: string } {
  if (!user) return { blocks, kinds };
  const tools = blocks.filter((_, index) => kinds[index] === 't');
  const rest = blocks.filter((_, index) => kinds[index] !== 't');
  return { blocks: [...tools, ...rest], kinds: 't'.repeat(tools.length) + 'u'.repeat(rest.length) };
}
