/** Version of the checkpoint template and prompts; bump it when their wording or structure changes. */
export const CHECKPOINT_TEMPLATE_VERSION = 'condense-checkpoint/1';

/** One section of a checkpoint: its heading and what belongs in it (the guidance the model reads). */
export interface CheckpointSection {
  readonly key: SectionKey;
  readonly title: string;
  readonly guidance: string;
}

/** Keys of the checkpoint sections, in the order they are written. */
export const SECTION_KEYS = [
  'activeTask',
  'goal',
  'constraints',
  'completedActions',
  'activeState',
  'inProgress',
  'blocked',
  'keyDecisions',
  'resolvedQuestions',
  'pendingUserAsks',
  'relevantFiles',
  'remainingWork',
  'criticalContext',
] as const;

/** A checkpoint section key. */
export type SectionKey = (typeof SECTION_KEYS)[number];

/** Every section, in order, with its heading and guidance. */
export const CHECKPOINT_SECTIONS: readonly CheckpointSection[] = [
  {
    key: 'activeTask',
    title: 'Active Task',
    guidance:
      'The most recent thing the user asked for, copied word for word from their message. If they later ' +
      'withdrew or replaced a request, only the newest one counts.',
  },
  {
    key: 'goal',
    title: 'Goal',
    guidance: 'What the user is trying to achieve overall, in one or two sentences.',
  },
  {
    key: 'constraints',
    title: 'Constraints & Preferences',
    guidance:
      'Rules and preferences the user stated (must, never, always, keep, avoid …), in their words where possible.',
  },
  {
    key: 'completedActions',
    title: 'Completed Actions',
    guidance:
      'A numbered list, one line per action, oldest first: `N. ACTION target — outcome [tool: name]`. Name ' +
      'the exact file, command, URL or query as the target and say whether it worked.',
  },
  {
    key: 'activeState',
    title: 'Active State',
    guidance:
      'The state things are in now: working directory, files changed and not yet verified, test status, ' +
      'running processes, branches.',
  },
  {
    key: 'inProgress',
    title: 'In Progress',
    guidance: 'Work that had started but was not finished when these turns ended.',
  },
  {
    key: 'blocked',
    title: 'Blocked',
    guidance: 'Problems still unsolved, each with the exact error text as it appeared.',
  },
  {
    key: 'keyDecisions',
    title: 'Key Decisions',
    guidance: 'Choices that were made and the reason for each.',
  },
  {
    key: 'resolvedQuestions',
    title: 'Resolved Questions',
    guidance: 'Questions and problems that were settled, with their answers or fixes.',
  },
  {
    key: 'pendingUserAsks',
    title: 'Pending User Asks',
    guidance: 'Things the user asked that had not been answered yet when these turns ended.',
  },
  {
    key: 'relevantFiles',
    title: 'Relevant Files',
    guidance: 'Every file read, created or edited, with its exact path and a few words on why it matters.',
  },
  {
    key: 'remainingWork',
    title: 'Remaining Work',
    guidance:
      'What was still left to do, written as background ("the tests for X had not been run yet"), not as ' +
      'instructions.',
  },
  {
    key: 'criticalContext',
    title: 'Critical Context',
    guidance:
      'Exact values the work depends on: identifiers, URLs, commands, configuration, numbers, error strings.',
  },
];

/** The Markdown heading of a section: `## Title`. */
export function sectionHeading(key: SectionKey): string {
  return `## ${sectionByKey(key).title}`;
}

function sectionByKey(key: SectionKey): CheckpointSection {
  const section = CHECKPOINT_SECTIONS.find((candidate) => candidate.key === key);
  if (section === undefined) throw new Error(`unknown checkpoint section ${key}`);
  return section;
}

/** What an empty section says. */
export const EMPTY_SECTION = '- none';

// Headings other templates use for the same sections, so their checkpoints can be updated (Hermes' current
// and earlier names, and the headings of its deterministic fallback).
const ALIASES: Readonly<Record<string, SectionKey>> = {
  'active task': 'activeTask',
  'historical task snapshot': 'activeTask',
  goal: 'goal',
  'constraints & preferences': 'constraints',
  'constraints and preferences': 'constraints',
  'completed actions': 'completedActions',
  'active state': 'activeState',
  'in progress': 'inProgress',
  'historical in-progress state': 'inProgress',
  blocked: 'blocked',
  'key decisions': 'keyDecisions',
  'resolved questions': 'resolvedQuestions',
  'pending user asks': 'pendingUserAsks',
  'historical pending user asks': 'pendingUserAsks',
  'relevant files': 'relevantFiles',
  'remaining work': 'remainingWork',
  'historical remaining work': 'remainingWork',
  'critical context': 'criticalContext',
  'last dropped turns': 'criticalContext',
};

/** A checkpoint body split into its sections; text before the first known heading is `preamble`. */
export interface ParsedSections {
  readonly sections: ReadonlyMap<SectionKey, string>;
  readonly preamble: string;
}

/**
 * Splits a checkpoint body at its `## ` headings (condense's and Hermes' names). Unknown headings stay inside
 * the section before them; a section that occurs twice is joined.
 */
export function parseSections(body: string): ParsedSections {
  const sections = new Map<SectionKey, string>();
  const preamble: string[] = [];
  let current: SectionKey | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (current === undefined) preamble.push(...lines);
    else {
      const text = lines.join('\n').trim();
      const before = sections.get(current);
      sections.set(current, before === undefined || before === '' ? text : `${before}\n${text}`);
    }
    lines = [];
  };
  for (const line of body.split('\n')) {
    const heading = /^#{1,3}\s+(.+?)\s*:?\s*$/.exec(line);
    const key = heading === null ? undefined : ALIASES[(heading[1] ?? '').toLowerCase()];
    if (key !== undefined) {
      flush();
      current = key;
    } else lines.push(line);
  }
  flush();
  return { sections, preamble: preamble.join('\n').trim() };
}

/** True when a section body says nothing (`- none`, `None.`, blank). */
export function isEmptySection(text: string | undefined): boolean {
  if (text === undefined) return true;
  const trimmed = text.trim().toLowerCase();
  return trimmed === '' || /^[-*]?\s*(?:none|n\/a|nothing)\.?$/.test(trimmed);
}
