import type { SessionDialect } from './dialect.js';
import { isMessageLine, type LineSkeleton } from './skeleton.js';

/** Skeletons indexed by uuid. When a uuid repeats, the last line wins (a later append is the newer truth). */
export interface SessionIndex {
  readonly skeletons: readonly LineSkeleton[];
  readonly dialect: SessionDialect;
  readonly byUuid: ReadonlyMap<string, number>;
  /** Uuids written more than once, with the lines holding them. */
  readonly duplicates: ReadonlyMap<string, readonly number[]>;
  /** True when the file has records off any sidechain: sidechain records are then subagent leftovers. */
  readonly hasMainChain: boolean;
  /** Per line: the line its `parentUuid` resolves to, or -1. */
  readonly parentAt: Int32Array;
  /** Per line: 1 when the line holds a uuid and is the line that uuid resolves to. */
  readonly canonical: Uint8Array;
}

/** Indexes skeletons by uuid. */
export function indexSkeletons(skeletons: readonly LineSkeleton[], dialect: SessionDialect): SessionIndex {
  const byUuid = new Map<string, number>();
  const duplicates = new Map<string, number[]>();
  let hasMainChain = false;
  for (const skeleton of skeletons) {
    const uuid = skeleton.uuid;
    if (uuid === undefined) continue;
    const previous = byUuid.get(uuid);
    if (previous !== undefined) {
      const lines = duplicates.get(uuid) ?? [(skeletons[previous] as LineSkeleton).line];
      lines.push(skeleton.line);
      duplicates.set(uuid, lines);
    }
    byUuid.set(uuid, skeleton.index);
    if (!skeleton.sidechain && isMessageLine(skeleton, dialect)) hasMainChain = true;
  }
  const parentAt = new Int32Array(skeletons.length).fill(-1);
  const canonical = new Uint8Array(skeletons.length);
  for (const skeleton of skeletons) {
    if (typeof skeleton.parent === 'string') parentAt[skeleton.index] = byUuid.get(skeleton.parent) ?? -1;
    if (skeleton.uuid !== undefined && byUuid.get(skeleton.uuid) === skeleton.index)
      canonical[skeleton.index] = 1;
  }
  return { skeletons, dialect, byUuid, duplicates, hasMainChain, parentAt, canonical };
}

/** The skeleton a uuid names (the winning line of a repeated uuid). */
export function lookup(index: SessionIndex, uuid: string | null | undefined): LineSkeleton | undefined {
  if (typeof uuid !== 'string') return undefined;
  const at = index.byUuid.get(uuid);
  return at === undefined ? undefined : index.skeletons[at];
}

/** True when the skeleton is the line its uuid resolves to (not a losing duplicate). */
export function isCanonical(index: SessionIndex, skeleton: LineSkeleton): boolean {
  return index.canonical[skeleton.index] === 1;
}

/** True when the record may be a leaf of the main conversation. */
export function isMainMessage(index: SessionIndex, skeleton: LineSkeleton): boolean {
  return (
    isMessageLine(skeleton, index.dialect) &&
    isCanonical(index, skeleton) &&
    (!skeleton.sidechain || !index.hasMainChain)
  );
}
