import { positionAbove } from '../../model/arrays.js';
import type { ActionFact } from './describe-action.js';

/** A failed step, and what made the same thing work later, when anything did. */
export interface FailureFix {
  readonly failed: ActionFact;
  /** The first later step on the same subject that succeeded. */
  readonly fixedBy?: ActionFact;
  /** Files edited between the failure and the success: where the fix went. */
  readonly editedPaths: readonly string[];
  /** What the agent said about the failure right after it (its diagnosis), when it said anything. */
  readonly diagnosis?: string;
}

/** A tool step plus where it sits among the run's messages and what the agent said right after its result. */
export interface LocatedAction {
  readonly action: ActionFact;
  /** What the assistant wrote next (the first sentences of its next text), if anything. */
  readonly followUp?: string;
}

/**
 * What a step is about, for matching a failure with its fix: the command's program and sub-command
 * (`npm test -- x` and `npm test` match; `mix compile` and `mix test` do not), else the tool and target.
 */
function subject(action: ActionFact): string {
  if (action.command !== undefined) {
    const words = action.command
      .replace(/^(?:cd\s+\S+\s*&&\s*)+/, '')
      .split(/\s+/)
      .filter((word) => word !== '' && !word.includes('='));
    const program = words[0] ?? '';
    const sub = words.slice(1).find((word) => !word.startsWith('-')) ?? '';
    return `run:${program} ${/^[\w:.-]+$/.test(sub) ? sub : ''}`.trim();
  }
  return `${action.tool}:${action.target}`;
}

// A file name an error line mentions (`src/app.py`, `main.go`).
const FILE_NAME = /[\w./-]+\.[A-Za-z]{1,6}\b/g;

function isWrite(action: ActionFact): boolean {
  return action.verb === 'EDIT' || action.verb === 'CREATE';
}

/** Appends `index` to the ascending list under `key` (steps are indexed in order, each once per key). */
function note(index: Map<string, number[]>, key: string, at: number): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [at]);
  else if (list[list.length - 1] !== at) list.push(at);
}

/** The first value of an ascending list above `after`, or `Infinity`. */
function firstAfter(list: readonly number[] | undefined, after: number): number {
  if (list === undefined) return Number.POSITIVE_INFINITY;
  return list[positionAbove(list, after)] ?? Number.POSITIVE_INFINITY;
}

/**
 * The paths a later step may name to touch `path`: the path itself and every tail of it after a slash
 * (`a/b/c.ts` is touched by `c.ts` and `b/c.ts`).
 */
function touchingPaths(path: string): string[] {
  const out = [path];
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    out.push(path.slice(slash + 1));
  }
  return out;
}

/**
 * Pairs every failed step with the first later success on the same subject (the same command, or the same
 * tool on the same target, or any success on a file the failure named), noting the files edited in between and
 * the agent's first words after the failure. Failures never followed by such a success stay unfixed.
 * A success that edits or creates a named file without sharing the subject is where the fix went, not the fix.
 * Successes are looked up by subject and by path, so the work grows with the steps, not with their square.
 */
export function pairFailures(steps: readonly LocatedAction[]): FailureFix[] {
  // Only a later step fixes a failure: the steps before the first one are never looked up, and a run without
  // failures (most of them) needs no index at all.
  const first = steps.findIndex(({ action }) => action.failed);
  if (first === -1) return [];
  const subjects = steps.map(({ action }, index) => (index < first ? '' : subject(action)));
  const bySubject = new Map<string, number[]>();
  const byPath = new Map<string, number[]>();
  const writes: number[] = [];
  for (let index = first; index < steps.length; index++) {
    const { action } = steps[index] as LocatedAction;
    if (isWrite(action)) writes.push(index);
    if (action.failed) continue;
    note(bySubject, subjects[index] as string, index);
    if (!isWrite(action)) for (const path of action.paths) note(byPath, path, index);
  }
  const out: FailureFix[] = [];
  for (let index = first; index < steps.length; index++) {
    const { action, followUp } = steps[index] as LocatedAction;
    if (!action.failed) continue;
    const named = action.errorLines.flatMap((line) => line.match(FILE_NAME) ?? []);
    // A step that fails again on the same subject before it works shares that later fix.
    let found = firstAfter(bySubject.get(subjects[index] as string), index);
    for (const path of [...action.paths, ...named]) {
      for (const touching of touchingPaths(path)) {
        found = Math.min(found, firstAfter(byPath.get(touching), index));
      }
    }
    const fixedBy = steps[found]?.action;
    const edited = new Set<string>();
    if (fixedBy !== undefined) {
      for (let at = positionAbove(writes, index); at < writes.length; at++) {
        const step = writes[at] as number;
        if (step > found) break;
        for (const path of (steps[step] as LocatedAction).action.paths) edited.add(path);
      }
    }
    out.push({
      failed: action,
      ...(fixedBy === undefined ? {} : { fixedBy }),
      editedPaths: [...edited],
      ...(followUp === undefined ? {} : { diagnosis: followUp }),
    });
  }
  return out;
}
