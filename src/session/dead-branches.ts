import { isCanonical, lookup, type SessionIndex } from './session-index.js';
import type { DeadBranch, DeadBranchReport } from './session-types.js';
import { isMessageLine, type LineSkeleton } from './skeleton.js';

interface BranchTally {
  root: LineSkeleton;
  records: number;
  messages: number;
  bytes: number;
  lastLine: number;
  leaf: LineSkeleton | undefined;
}

/**
 * Groups the records off the active chain into branches: each dead record belongs to the branch of its topmost
 * dead ancestor, which forks off a live record (a rewind, retry or edit) or starts a tree of its own. Branches
 * without any user/assistant record (hook and progress records written after the leaf) are only counted.
 * Sidechain records inside a main file are subagent records, not dead branches.
 */
export function findDeadBranches(index: SessionIndex, live: ReadonlySet<number>): DeadBranchReport {
  const dead = (skeleton: LineSkeleton | undefined): skeleton is LineSkeleton =>
    skeleton !== undefined &&
    !live.has(skeleton.index) &&
    isCanonical(index, skeleton) &&
    !(skeleton.sidechain && index.hasMainChain);
  // rootOf[i]: index of the topmost dead ancestor of dead record i (-1 = not computed yet).
  const rootOf = new Int32Array(index.skeletons.length).fill(-1);
  const stamp = new Int32Array(index.skeletons.length).fill(-1);
  const trail: number[] = [];
  const topmost = (start: LineSkeleton): LineSkeleton => {
    trail.length = 0;
    let current = start;
    let root = -1;
    while (root === -1) {
      if (rootOf[current.index] !== -1) {
        root = rootOf[current.index] as number;
        break;
      }
      trail.push(current.index);
      stamp[current.index] = start.index;
      const parentAt = index.parentAt[current.index] as number;
      const parent = parentAt >= 0 ? index.skeletons[parentAt] : lookup(index, current.logicalParent);
      if (dead(parent) && stamp[parent.index] !== start.index) current = parent;
      else root = current.index;
    }
    for (const at of trail) rootOf[at] = root;
    return index.skeletons[root] as LineSkeleton;
  };
  const tallies = new Map<number, BranchTally>();
  let sidechainRecords = 0;
  for (const skeleton of index.skeletons) {
    if (skeleton.uuid === undefined || live.has(skeleton.index) || !isCanonical(index, skeleton)) continue;
    if (skeleton.sidechain && index.hasMainChain) {
      sidechainRecords++;
      continue;
    }
    const root = topmost(skeleton);
    const tally = tallies.get(root.index) ?? {
      root,
      records: 0,
      messages: 0,
      bytes: 0,
      lastLine: root.line,
      leaf: undefined,
    };
    tally.records++;
    if (isMessageLine(skeleton, index.dialect)) {
      tally.messages++;
      tally.leaf = skeleton;
    }
    tally.bytes += skeleton.end - skeleton.start;
    tally.lastLine = Math.max(tally.lastLine, skeleton.line);
    tallies.set(root.index, tally);
  }
  const branches: DeadBranch[] = [];
  let records = 0;
  let sideRecords = 0;
  for (const tally of [...tallies.values()].sort((left, right) => left.root.index - right.root.index)) {
    if (tally.messages === 0) {
      sideRecords += tally.records;
      continue;
    }
    records += tally.records;
    const fork = lookup(index, tally.root.parent ?? tally.root.logicalParent);
    const forkIsLive = fork !== undefined && live.has(fork.index);
    branches.push({
      forkUuid: forkIsLive ? fork.uuid : undefined,
      forkLine: forkIsLive ? fork.line : undefined,
      firstUuid: tally.root.uuid as string,
      firstLine: tally.root.line,
      lastLine: tally.lastLine,
      leafUuid: (tally.leaf ?? tally.root).uuid as string,
      records: tally.records,
      messages: tally.messages,
      bytes: tally.bytes,
    });
  }
  return { count: branches.length, branches, records, sideRecords, sidechainRecords };
}
