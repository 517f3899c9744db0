import { findPaths, findUrls } from '../../inspect/artifact-patterns.js';
import type { Artifacts } from '../../inspect/artifacts.js';
import { isEmptySection, type ParsedSections, type SectionKey } from '../prompts/checkpoint-template.js';
import type { SessionFacts } from './collect-facts.js';
import type { ActionFact } from './describe-action.js';
import { actionLine } from './describe-action.js';
import { clip, pushUnique } from './sentences.js';

/** Paths the actions touched, by what was done to them. */
export interface FileGroups {
  readonly edited: readonly string[];
  readonly created: readonly string[];
  readonly read: readonly string[];
  readonly searched: readonly string[];
}

/** The content of an extractive checkpoint before it is fitted to a budget. */
export interface Draft {
  readonly task: string;
  readonly goal: string;
  readonly constraints: readonly string[];
  readonly decisions: readonly string[];
  readonly inProgress: readonly string[];
  readonly remaining: readonly string[];
  readonly pending: readonly string[];
  readonly resolved: readonly string[];
  readonly blocked: readonly string[];
  readonly state: readonly string[];
  /** Completed-action lines of the previous checkpoint, numbers included. */
  readonly previousActions: readonly string[];
  readonly actions: readonly ActionFact[];
  /** Number of the first new action. */
  readonly firstNumber: number;
  readonly focusTerms: readonly string[];
  readonly files: FileGroups;
  readonly artifacts: Artifacts;
  /** Paths, URLs and commands the previous checkpoint held, kept when its lines are trimmed. */
  readonly previousArtifacts: { readonly paths: readonly string[]; readonly urls: readonly string[] };
  readonly previousContext: readonly string[];
  readonly summary: string;
  readonly focusTopic?: string;
}

/** What a draft is built from. */
export interface DraftInput {
  readonly facts: SessionFacts;
  readonly artifacts: Artifacts;
  readonly latestUserRequest?: string;
  readonly previous?: ParsedSections;
  readonly focusTopic?: string;
}

const BLOCKER_WINDOW = 10;

function lines(text: string | undefined): string[] {
  if (isEmptySection(text)) return [];
  return (text ?? '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
}

function bullets(text: string | undefined): string[] {
  return lines(text).map((line) => line.replace(/^\s*[-*]\s+/, '').trim());
}

function previousSection(previous: ParsedSections | undefined, key: SectionKey): string | undefined {
  return previous?.sections.get(key);
}

function fileGroups(actions: readonly ActionFact[]): FileGroups {
  const edited: string[] = [];
  const created: string[] = [];
  const read: string[] = [];
  const searched: string[] = [];
  const seen = new Set<string>();
  // Strongest use first, so a file that was read and then edited is listed once, as edited.
  const order: [ActionFact['verb'][], string[]][] = [
    [['EDIT'], edited],
    [['CREATE'], created],
    [['READ'], read],
    [['SEARCH', 'LIST', 'RUN', 'CALL', 'FETCH', 'PLAN', 'DELEGATE'], searched],
  ];
  for (const [verbs, target] of order) {
    for (const action of actions) {
      if (!verbs.includes(action.verb)) continue;
      for (const path of action.paths) {
        if (seen.has(path)) continue;
        seen.add(path);
        target.push(path);
      }
    }
  }
  return { edited, created, read, searched };
}

const FILE_LABELS: Readonly<Record<string, keyof FileGroups>> = {
  edited: 'edited',
  created: 'created',
  read: 'read',
  'searched or listed': 'searched',
};

/** The file lists of a previous checkpoint (`- edited: a, b`; a bare `- path` line counts as mentioned). */
function previousFiles(text: string | undefined): { groups: FileGroups; mentioned: string[] } {
  const groups: Record<keyof FileGroups, string[]> = { edited: [], created: [], read: [], searched: [] };
  const mentioned: string[] = [];
  for (const line of bullets(text)) {
    const labelled = /^([a-z ]+):\s+(.+)$/.exec(line);
    const key = labelled === null ? undefined : FILE_LABELS[labelled[1] ?? ''];
    const items = labelled === null ? [line] : (labelled[2] ?? '').split(', ');
    (key === undefined ? mentioned : groups[key]).push(...items.map((item) => item.trim()).filter(Boolean));
  }
  return { groups, mentioned };
}

/** Earlier lists first, each path once, under the strongest thing done to it. */
function mergeFiles(earlier: FileGroups, later: FileGroups): FileGroups {
  const seen = new Set<string>();
  const pick = (key: keyof FileGroups) => {
    const out: string[] = [];
    for (const path of [...earlier[key], ...later[key]]) {
      if (seen.has(path)) continue;
      seen.add(path);
      out.push(path);
    }
    return out;
  };
  const edited = pick('edited');
  const created = pick('created');
  const read = pick('read');
  return { edited, created, read, searched: pick('searched') };
}

function sameTarget(a: ActionFact, b: ActionFact): boolean {
  return a.tool === b.tool && a.target === b.target;
}

function failures(actions: readonly ActionFact[]): { blocked: string[]; resolved: string[] } {
  const blocked: string[] = [];
  const resolved: string[] = [];
  actions.forEach((action, index) => {
    if (!action.failed) return;
    const later = actions.slice(index + 1);
    const error = action.errorLines[0] ?? action.shortOutcome;
    if (later.some((next) => !next.failed && sameTarget(next, action))) {
      resolved.push(
        `${action.verb} ${action.target} failed (${error}) and later succeeded [tool: ${action.tool}]`,
      );
    } else if (index >= actions.length - BLOCKER_WINDOW && !later.some((next) => sameTarget(next, action))) {
      blocked.push(`${action.verb} ${action.target} [tool: ${action.tool}]: ${error}`);
    }
  });
  return { blocked, resolved };
}

function mergeBlocked(previous: readonly string[], actions: readonly ActionFact[]) {
  const kept: string[] = [];
  const resolved: string[] = [];
  const successes = actions.filter((action) => !action.failed);
  for (const line of previous) {
    const fixed = successes.some(
      (action) => line.includes(action.target) || action.paths.some((path) => line.includes(path)),
    );
    (fixed ? resolved : kept).push(fixed ? `${line} (resolved later)` : line);
  }
  return { kept, resolved };
}

function lastNumber(actionLines: readonly string[]): number {
  let last = 0;
  for (const line of actionLines) {
    const match = /^\s*(\d+)(?:\s*[–-]\s*(\d+))?[.)]/.exec(line);
    if (match !== null) last = Math.max(last, Number(match[2] ?? match[1]));
  }
  return last;
}

function stateLines(facts: SessionFacts): string[] {
  const out = [...facts.stateLines];
  const lastRun = [...facts.actions].reverse().find((action) => action.verb === 'RUN');
  if (lastRun !== undefined) out.push(`Last command: ${lastRun.target} — ${lastRun.shortOutcome}`);
  const failed = facts.actions.filter((action) => action.failed).length;
  if (facts.actions.length > 0)
    out.push(`${facts.actions.length} tool calls in these turns, ${failed} failed`);
  return out;
}

function focusTermsOf(topic: string | undefined): string[] {
  if (topic === undefined) return [];
  return topic
    .toLowerCase()
    .split(/[^\p{L}\p{N}_./-]+/u)
    .filter((term) => term.length >= 3);
}

/** Combines the facts of the new turns with the previous checkpoint (if any) into one draft. */
export function buildDraft(input: DraftInput): Draft {
  const { facts, previous } = input;
  const requests = facts.userRequests;
  const task = input.latestUserRequest?.trim() || (requests[requests.length - 1] ?? '');
  const previousGoal = previousSection(previous, 'goal');
  const first = requests[0] ?? '';
  const goal = !isEmptySection(previousGoal)
    ? (previousGoal ?? '').trim()
    : first === '' || first === task
      ? ''
      : first;
  const constraints: string[] = [];
  const seen = new Set<string>();
  pushUnique(constraints, bullets(previousSection(previous, 'constraints')), seen);
  pushUnique(constraints, facts.constraints, seen);
  const decisions: string[] = [];
  pushUnique(decisions, bullets(previousSection(previous, 'keyDecisions')), new Set());
  pushUnique(decisions, facts.decisions, new Set(decisions.map((line) => line.toLowerCase())));
  const own = failures(facts.actions);
  const merged = mergeBlocked(bullets(previousSection(previous, 'blocked')), facts.actions);
  const inProgress = [
    ...facts.todos.filter((todo) => todo.status === 'in_progress').map((todo) => todo.content),
    ...facts.intents,
  ];
  const pendingTodos = facts.todos.filter((todo) => todo.status === 'pending');
  const remaining = pendingTodos.map((todo) => `not started yet: ${todo.content}`);
  const previousActions = lines(previousSection(previous, 'completedActions'));
  const previousContext = lines(previousSection(previous, 'criticalContext'));
  if (previous !== undefined && previous.preamble !== '') previousContext.unshift(previous.preamble);
  const previousText = previous === undefined ? '' : [...previous.sections.values()].join('\n');
  const files = previousFiles(previousSection(previous, 'relevantFiles'));
  const state = stateLines(facts);
  const hadAssistant = facts.counts.assistant > 0;
  return {
    task,
    goal,
    constraints,
    decisions,
    inProgress:
      inProgress.length > 0 || hadAssistant ? inProgress : bullets(previousSection(previous, 'inProgress')),
    remaining:
      remaining.length > 0 || facts.todos.length > 0
        ? remaining
        : bullets(previousSection(previous, 'remainingWork')),
    pending: facts.pendingAsks.filter((ask) => ask.trim() !== task),
    resolved: [
      ...bullets(previousSection(previous, 'resolvedQuestions')),
      ...merged.resolved,
      ...own.resolved,
    ],
    blocked: [...merged.kept, ...own.blocked],
    state: state.length > 0 ? state : bullets(previousSection(previous, 'activeState')),
    previousActions,
    actions: facts.actions,
    firstNumber: lastNumber(previousActions) + 1,
    focusTerms: focusTermsOf(input.focusTopic),
    files: mergeFiles(files.groups, fileGroups(facts.actions)),
    artifacts: input.artifacts,
    previousArtifacts: {
      paths: [...files.mentioned, ...findPaths(previousText)],
      urls: findUrls(previousText),
    },
    previousContext,
    summary: `${facts.counts.user} user, ${facts.counts.assistant} assistant and ${facts.counts.tool} tool messages condensed`,
    ...(input.focusTopic === undefined ? {} : { focusTopic: input.focusTopic }),
  };
}

/** Numbered Completed Actions lines of the new actions, keeping those at `keep` and condensing the rest. */
export function numberedActions(draft: Draft, keep: ReadonlySet<number>, short: boolean): string[] {
  const out: string[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const from = draft.firstNumber + (run[0] ?? 0);
    const to = draft.firstNumber + (run[run.length - 1] ?? 0);
    const tools = new Map<string, number>();
    for (const index of run) {
      const tool = draft.actions[index]?.tool ?? '';
      tools.set(tool, (tools.get(tool) ?? 0) + 1);
    }
    const list = [...tools].map(([tool, count]) => `${tool} ×${count}`).join(', ');
    out.push(`${from === to ? from : `${from}–${to}`}. (${run.length} condensed: ${list})`);
    run = [];
  };
  draft.actions.forEach((action, index) => {
    if (keep.has(index)) {
      flush();
      out.push(`${draft.firstNumber + index}. ${actionLine(action, short)}`);
    } else run.push(index);
  });
  flush();
  return out;
}

/** A bullet list, or the empty-section marker. */
export function bulletList(items: readonly string[], max = Number.POSITIVE_INFINITY, chars = 240): string {
  const kept = items.slice(Math.max(0, items.length - max));
  return kept.length === 0 ? '- none' : kept.map((item) => `- ${clip(item, chars)}`).join('\n');
}
