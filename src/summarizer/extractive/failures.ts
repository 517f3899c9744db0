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

function touches(action: ActionFact, paths: readonly string[]): boolean {
  return action.paths.some((path) => paths.some((other) => other === path || other.endsWith(`/${path}`)));
}

/**
 * Pairs every failed step with the first later success on the same subject (the same command, or the same
 * tool on the same target, or any success on a file the failure named), noting the files edited in between and
 * the agent's first words after the failure. Failures never followed by such a success stay unfixed.
 */
export function pairFailures(steps: readonly LocatedAction[]): FailureFix[] {
  const out: FailureFix[] = [];
  steps.forEach(({ action, followUp }, index) => {
    if (!action.failed) return;
    const key = subject(action);
    const named = action.errorLines.flatMap((line) => line.match(/[\w./-]+\.[A-Za-z]{1,6}\b/g) ?? []);
    const edited: string[] = [];
    // A step that fails again on the same subject before it works shares that later fix.
    let fixedBy: ActionFact | undefined;
    for (const later of steps.slice(index + 1)) {
      const next = later.action;
      if (!next.failed && (subject(next) === key || touches(next, action.paths) || touches(next, named))) {
        if (next.verb === 'EDIT' || next.verb === 'CREATE') {
          for (const path of next.paths) if (!edited.includes(path)) edited.push(path);
          if (subject(next) !== key) continue;
        }
        fixedBy = next;
        break;
      }
      if (next.verb === 'EDIT' || next.verb === 'CREATE') {
        for (const path of next.paths) if (!edited.includes(path)) edited.push(path);
      }
    }
    out.push({
      failed: action,
      ...(fixedBy === undefined ? {} : { fixedBy }),
      editedPaths: fixedBy === undefined ? [] : edited,
      ...(followUp === undefined ? {} : { diagnosis: followUp }),
    });
  });
  return out;
}
