import { appendAll } from '../../model/arrays.js';
import type { Unit } from './encode-unit.js';

/**
 * Merges neighbouring units of the same role into one wire message. Units read from the same wire message
 * (same `group`) merge back in their recorded block order; units read from different wire messages stay
 * apart (the original structure is kept); a unit from elsewhere merges with its neighbour so roles alternate,
 * with tool_result blocks first in a user message as Anthropic requires. Linear in the blocks: a run of units
 * is merged once, not pairwise (one response with thousands of parallel calls is thousands of units).
 */
export function mergeUnits(units: readonly Unit[]): Unit[] {
  const out: Unit[] = [];
  let run: Unit[] = [];
  // What the units of the run merged so far would answer to `canMerge`.
  let open: Pick<Unit, 'role' | 'group' | 'verbatim'> | undefined;
  for (const next of units) {
    if (open !== undefined && open.role === next.role && canMerge(open, next)) {
      run.push(next);
      open = { role: open.role, ...(sameGroup(open, next) ? { group: open.group } : {}) };
    } else {
      if (run.length > 0) out.push(mergeRun(run));
      run = [next];
      open = next;
    }
  }
  if (run.length > 0) out.push(mergeRun(run));
  return out;
}

function canMerge(left: Pick<Unit, 'group' | 'verbatim'>, right: Unit): boolean {
  if ('verbatim' in left || 'verbatim' in right) return false;
  if (left.group === undefined || right.group === undefined) return true;
  return left.group === right.group;
}

function sameGroup(left: Pick<Unit, 'group'>, right: Pick<Unit, 'group'>): boolean {
  return left.group !== undefined && left.group === right.group;
}

/**
 * The units of a run merged left to right. The first two merge by their recorded order when they came from the
 * same wire message; every later merge only appends (in a user message, tool results first), so the blocks of
 * the whole run are joined once at the end.
 */
function mergeRun(run: readonly Unit[]): Unit {
  const [first, second] = run as [Unit, Unit | undefined];
  if (second === undefined) return first;
  let fields = mergeFields(first, second);
  const together = sameGroup(first, second) && first.order !== undefined;
  for (const unit of run.slice(2)) fields = mergeFields(fields, unit);
  if (!together) return { ...fields, ...joinBlocks({ blocks: [], kinds: '' }, run, first.role === 'user') };
  const start = interleave(first, second, first.order as string);
  return {
    ...fields,
    ...(run.length === 2 ? start : joinBlocks(start, run.slice(2), first.role === 'user')),
  };
}

type Fields = Omit<Unit, 'blocks' | 'kinds'>;

/** Everything but the blocks of `left` merged with `right` (an earlier merge's `left` carries no order). */
function mergeFields(left: Fields, right: Unit): Fields {
  const intact = left.intact !== undefined && left.intact === right.intact ? { intact: left.intact } : {};
  const extra = left.extra ?? right.extra;
  return {
    role: left.role,
    split: left.split,
    members: left.members + right.members,
    ...(sameGroup(left, right) ? { group: left.group } : {}),
    ...intact,
    ...(extra === undefined ? {} : { extra }),
    ...(left.unknownRole === true ? { unknownRole: true } : {}),
  };
}

/** `start`'s blocks then those of `units`; in a user message every tool_result first, each kind in order. */
function joinBlocks(
  start: { readonly blocks: readonly unknown[]; readonly kinds: string },
  units: readonly Unit[],
  user: boolean,
): { blocks: unknown[]; kinds: string } {
  const blocks = [...start.blocks];
  let kinds = start.kinds;
  for (const unit of units) {
    appendAll(blocks, unit.blocks);
    kinds += unit.kinds;
  }
  if (!user) return { blocks, kinds };
  const tools = blocks.filter((_, index) => kinds[index] === 't');
  const others = blocks.filter((_, index) => kinds[index] !== 't');
  appendAll(tools, others);
  return { blocks: tools, kinds: 't'.repeat(tools.length - others.length) + 'u'.repeat(others.length) };
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
    return joinBlocks({ blocks: combined, kinds }, [], true);
  }
  let tool = 0;
  let other = 0;
  const blocks = [...order].map((kind) => (kind === 't' ? tools[tool++] : rest[other++]));
  return { blocks, kinds: order };
}
