import { boundaryInfo, type SegmentEnds } from './boundary.js';
import { isMainMessage, lookup, type SessionIndex } from './session-index.js';
import type { BoundaryLink } from './session-types.js';
import { isRoot, type LineSkeleton } from './skeleton.js';

/** Where and why the walk could not go on as the links said. */
export interface ChainCut {
  readonly kind: 'missing-parent' | 'cycle' | 'boundary-link-missing' | 'invalid-boundary';
  readonly line: number;
  readonly uuid: string | undefined;
  /** The uuid that could not be followed. */
  readonly target: string | undefined;
  /** For a missing boundary link: the line the history was resumed from. */
  readonly resumedLine?: number;
}

/** A walked chain: skeleton indexes root first, the cuts met, and how each boundary on it was passed. */
export interface ChainWalk {
  readonly path: readonly number[];
  readonly cuts: readonly ChainCut[];
  readonly links: ReadonlyMap<number, BoundaryLink>;
}

/**
 * The whole history of the leaf's branch: walks `parentUuid` back to a root, and through compaction boundaries
 * to their `logicalParentUuid`. A boundary whose logical parent is not in the file (seen in real files) resumes
 * from the newest main-chain message written before the boundary, and the cut is reported. Stops, reporting
 * where, at a missing parent or a cycle; never loops.
 */
export function walkFull(index: SessionIndex, leaf: LineSkeleton): ChainWalk {
  const out: number[] = [];
  const cuts: ChainCut[] = [];
  const links = new Map<number, BoundaryLink>();
  const seen = new Set<number>();
  let current: LineSkeleton | undefined = leaf;
  while (current !== undefined) {
    const root = walkToRoot(index, current, seen, out, cuts);
    if (root === undefined || !index.dialect.isBoundary(root.value)) break;
    current = crossBoundary(index, root, seen, cuts, links);
  }
  return { path: out.reverse(), cuts, links };
}

/**
 * Follows `parentUuid` from `from`, appending each line to `path`, up to a root, which it returns. At a cycle or
 * a missing parent it reports the cut and returns `undefined`.
 */
function walkToRoot(
  index: SessionIndex,
  from: LineSkeleton,
  seen: Set<number>,
  path: number[],
  cuts: ChainCut[],
): LineSkeleton | undefined {
  let current: LineSkeleton | undefined = from;
  while (current !== undefined) {
    if (seen.has(current.index)) {
      cuts.push(cut('cycle', current, current.uuid));
      return undefined;
    }
    seen.add(current.index);
    path.push(current.index);
    if (isRoot(current)) return current;
    const next = lookup(index, current.parent);
    if (next === undefined) cuts.push(cut('missing-parent', current, current.parent ?? undefined));
    current = next;
  }
  return undefined;
}

function crossBoundary(
  index: SessionIndex,
  boundary: LineSkeleton,
  seen: ReadonlySet<number>,
  cuts: ChainCut[],
  links: Map<number, BoundaryLink>,
): LineSkeleton | undefined {
  if (boundary.logicalParent === undefined) {
    links.set(boundary.index, 'start');
    return undefined;
  }
  const target = lookup(index, boundary.logicalParent);
  if (target !== undefined && !seen.has(target.index)) {
    links.set(boundary.index, 'crossed');
    return target;
  }
  if (target !== undefined) {
    cuts.push(cut('cycle', boundary, boundary.logicalParent));
    links.set(boundary.index, 'missing');
    return undefined;
  }
  const resumed = newestMessageBefore(index, boundary.index, seen);
  cuts.push({
    ...cut('boundary-link-missing', boundary, boundary.logicalParent),
    ...(resumed === undefined ? {} : { resumedLine: resumed.line }),
  });
  links.set(boundary.index, resumed === undefined ? 'missing' : 'resumed');
  return resumed;
}

function newestMessageBefore(
  index: SessionIndex,
  before: number,
  seen: ReadonlySet<number>,
): LineSkeleton | undefined {
  for (let at = before - 1; at >= 0; at--) {
    const skeleton = index.skeletons[at] as LineSkeleton;
    if (!seen.has(at) && isMainMessage(index, skeleton)) return skeleton;
  }
  return undefined;
}

/**
 * What the model sees: the leaf's branch back to its last compaction boundary, with the boundary's preserved
 * messages spliced around the checkpoint (condense: head before, tail after; Claude Code: `preservedSegment`
 * after the summary, as Claude Code relinks it on resume). Without a boundary on the branch, the whole branch.
 */
export function walkContext(index: SessionIndex, leaf: LineSkeleton): ChainWalk {
  const cuts: ChainCut[] = [];
  const path: number[] = [];
  walkToRoot(index, leaf, new Set<number>(), path, cuts);
  path.reverse();
  const root = index.skeletons[path[0] as number] as LineSkeleton;
  if (!isRoot(root) || !index.dialect.isBoundary(root.value)) return { path, cuts, links: new Map() };
  return { path: splice(index, root, path, cuts), cuts, links: new Map([[root.index, 'start']]) };
}

function splice(
  index: SessionIndex,
  root: LineSkeleton,
  path: readonly number[],
  cuts: ChainCut[],
): number[] {
  const info = boundaryInfo(root.value);
  const onPath = new Set(path);
  const anchor = info.anchor === undefined ? path[1] : lookup(index, info.anchor)?.index;
  const before = resolveList(index, root, info.before, cuts);
  let after = Array.isArray(info.after)
    ? resolveList(index, root, info.after as readonly string[], cuts)
    : walkSegment(index, root, info.after as SegmentEnds, cuts);
  // A segment already on the branch (re-emitted after the boundary) needs no splice.
  if (after.some((at) => onPath.has(at))) after = [];
  const placed = new Set<number>([root.index, ...before, ...after]);
  if (anchor !== undefined) placed.add(anchor);
  const rest = path.slice(1).filter((at) => !placed.has(at));
  return [root.index, ...before, ...(anchor === undefined ? [] : [anchor]), ...after, ...rest];
}

function resolveList(
  index: SessionIndex,
  root: LineSkeleton,
  uuids: readonly string[],
  cuts: ChainCut[],
): number[] {
  const out: number[] = [];
  for (const uuid of uuids) {
    const found = lookup(index, uuid);
    if (found === undefined) cuts.push(cut('invalid-boundary', root, uuid));
    else if (!out.includes(found.index)) out.push(found.index);
  }
  return out;
}

function walkSegment(index: SessionIndex, root: LineSkeleton, ends: SegmentEnds, cuts: ChainCut[]): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  let current = lookup(index, ends.tail);
  while (current !== undefined && !seen.has(current.index)) {
    seen.add(current.index);
    out.push(current.index);
    if (current.uuid === ends.head) return out.reverse();
    current = lookup(index, current.parent);
  }
  cuts.push(cut('invalid-boundary', root, ends.head));
  return [];
}

function cut(kind: ChainCut['kind'], at: LineSkeleton, target: string | undefined): ChainCut {
  return { kind, line: at.line, uuid: at.uuid, target };
}
