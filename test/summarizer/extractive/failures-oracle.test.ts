import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positionAbove } from '../../../src/model/arrays.js';
import type { ActionFact, ActionVerb } from '../../../src/summarizer/extractive/describe-action.js';
import {
  type FailureFix,
  type LocatedAction,
  pairFailures,
} from '../../../src/summarizer/extractive/failures.js';

// pairFailures as it was before it began at the first failure (issue 15), kept as the oracle: the steps before
// the first failure were indexed, and never looked up.
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
function oraclePairFailures(steps: readonly LocatedAction[]): FailureFix[] {
  const subjects = steps.map(({ action }) => subject(action));
  const bySubject = new Map<string, number[]>();
  const byPath = new Map<string, number[]>();
  const writes: number[] = [];
  steps.forEach(({ action }, index) => {
    if (isWrite(action)) writes.push(index);
    if (action.failed) return;
    note(bySubject, subjects[index] as string, index);
    if (!isWrite(action)) for (const path of action.paths) note(byPath, path, index);
  });
  const out: FailureFix[] = [];
  steps.forEach(({ action, followUp }, index) => {
    if (!action.failed) return;
    const named = action.errorLines.flatMap((line) => line.match(/[\w./-]+\.[A-Za-z]{1,6}\b/g) ?? []);
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
  });
  return out;
}

const command = fc.constantFrom(
  'npm test',
  'npm test -- a',
  'cd x && npm test',
  'mix compile',
  'FOO=1 make',
  'ls -la',
);
const path = fc.constantFrom('src/a.ts', 'a.ts', 'lib/b/c.py', 'c.py', 'README.md');
const action: fc.Arbitrary<ActionFact> = fc
  .record({
    tool: fc.constantFrom('bash', 'Edit', 'Write', 'Read'),
    verb: fc.constantFrom<ActionVerb>('RUN', 'EDIT', 'CREATE', 'READ', 'CALL'),
    target: fc.constantFrom('t1', 't2'),
    failed: fc.boolean(),
    errorLines: fc.array(fc.constantFrom('Error in src/a.ts:3', 'boom', 'see lib/b/c.py', 'exit code 1'), {
      maxLength: 2,
    }),
    paths: fc.array(path, { maxLength: 2 }),
    command: fc.option(command, { nil: undefined }),
  })
  .map(({ command: run, ...rest }) => ({
    ...rest,
    outcome: rest.failed ? 'failed' : 'ok',
    shortOutcome: rest.failed ? 'failed' : 'ok',
    ...(run === undefined ? {} : { command: run }),
  }));
const steps: fc.Arbitrary<LocatedAction[]> = fc.array(
  fc
    .record({
      action,
      followUp: fc.option(fc.constantFrom('The test failed because', 'Fixed.'), { nil: undefined }),
    })
    .map(({ action: step, followUp }) =>
      followUp === undefined ? { action: step } : { action: step, followUp },
    ),
  { maxLength: 14 },
);

describe('pairFailures', () => {
  it('pairs what it paired when it indexed every step', () => {
    fc.assert(
      fc.property(steps, (list) => {
        const found: FailureFix[] = pairFailures(list);
        expect(found).toEqual(oraclePairFailures(list));
        expect(JSON.stringify(found)).toBe(JSON.stringify(oraclePairFailures(list)));
      }),
      { numRuns: 5000 },
    );
  });
});
