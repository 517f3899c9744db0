import { CondenseError } from '../errors/condense-error.js';
import { isJsonObject } from '../model/json.js';
import { isMainMessage, lookup, type SessionIndex } from './session-index.js';
import type { LeafReason } from './session-types.js';
import type { LineSkeleton } from './skeleton.js';

/** The chosen leaf and why. */
export interface LeafChoice {
  readonly skeleton: LineSkeleton;
  readonly reason: LeafReason;
}

/**
 * Chooses the leaf the way Claude Code resumes: a leaf asked for by uuid (or unique prefix) wins; else the
 * newest user/assistant record of the main chain in file order (the file is append-only, so later is newer),
 * unless the latest `last-prompt` record names a leaf the newest record does not descend from (a stale branch
 * written after the active one). `undefined` when the file holds no message.
 */
export function selectLeaf(
  index: SessionIndex,
  options: { readonly leaf?: string | undefined; readonly fileName: string },
): LeafChoice | undefined {
  if (options.leaf !== undefined)
    return { skeleton: leafByOption(index, options.leaf, options.fileName), reason: 'option' };
  const newest = newestMessage(index);
  const prompted = lastPromptLeaf(index);
  if (prompted === undefined || prompted === newest) {
    return newest === undefined ? undefined : { skeleton: newest, reason: 'newest-message' };
  }
  if (newest !== undefined && descendsFrom(index, newest, prompted))
    return { skeleton: newest, reason: 'newest-message' };
  return { skeleton: prompted, reason: 'last-prompt' };
}

function newestMessage(index: SessionIndex): LineSkeleton | undefined {
  for (let at = index.skeletons.length - 1; at >= 0; at--) {
    const skeleton = index.skeletons[at] as LineSkeleton;
    if (isMainMessage(index, skeleton)) return skeleton;
  }
  return undefined;
}

function lastPromptLeaf(index: SessionIndex): LineSkeleton | undefined {
  for (let at = index.skeletons.length - 1; at >= 0; at--) {
    const skeleton = index.skeletons[at] as LineSkeleton;
    if (skeleton.type !== 'last-prompt' || !isJsonObject(skeleton.value)) continue;
    const found = lookup(index, skeleton.value['leafUuid'] as string | undefined);
    if (found !== undefined) return found;
  }
  return undefined;
}

function descendsFrom(index: SessionIndex, from: LineSkeleton, ancestor: LineSkeleton): boolean {
  let current: LineSkeleton | undefined = from;
  for (let steps = 0; current !== undefined && steps <= index.skeletons.length; steps++) {
    if (current === ancestor) return true;
    current = lookup(index, current.parent ?? current.logicalParent);
  }
  return false;
}

function leafByOption(index: SessionIndex, wanted: string, fileName: string): LineSkeleton {
  const exact = lookup(index, wanted);
  if (exact !== undefined) return exact;
  const matches: string[] = [];
  if (wanted.length >= 4) {
    for (const uuid of index.byUuid.keys()) if (uuid.startsWith(wanted)) matches.push(uuid);
  }
  const only = matches.length === 1 ? lookup(index, matches[0]) : undefined;
  if (only !== undefined) return only;
  throw new CondenseError({
    code: 'INVALID_OPTIONS',
    message:
      matches.length > 1
        ? `leaf "${wanted}" matches ${matches.length} records of ${fileName}`
        : `leaf "${wanted}" is not a record of ${fileName}`,
    hint:
      matches.length > 1
        ? 'give more characters of the uuid'
        : 'pass the uuid (or a unique prefix of at least 4 characters) of a record in this file',
    location: { file: fileName },
  });
}
