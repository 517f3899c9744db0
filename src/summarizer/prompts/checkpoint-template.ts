import { appendAll } from '../../model/arrays.js';
import { isLineTerminator } from '../../model/characters.js';

/** Version of the checkpoint template and prompts; bump it when their wording or structure changes. */
export const CHECKPOINT_TEMPLATE_VERSION = 'condense-checkpoint/2';

/** One section of a checkpoint: its heading and what belongs in it (the guidance the model reads). */
export interface CheckpointSection {
  readonly key: SectionKey;
  readonly title: string;
  readonly guidance: string;
}

/**
 * Keys of the checkpoint sections, in the order they are written: what someone taking over the run needs first
 * (the person's requests, where the work stands, what comes next) before the record of how it got there.
 */
export const SECTION_KEYS = [
  'currentRequest',
  'originalRequest',
  'nextStep',
  'taskState',
  'userMessages',
  'constraints',
  'filesChanged',
  'failures',
  'keyDecisions',
  'pendingAsks',
  'activeState',
  'earlierSummary',
  'errorLines',
  'actionLog',
  'references',
] as const;

/** A checkpoint section key. */
export type SectionKey = (typeof SECTION_KEYS)[number];

/** Every section, in order, with its heading and guidance. */
export const CHECKPOINT_SECTIONS: readonly CheckpointSection[] = [
  {
    key: 'currentRequest',
    title: 'Current Request',
    guidance:
      "The person's latest real request, copied word for word from their message (not a reminder, " +
      'notification or tool output the harness inserted). If they only said "continue" or "yes" since, give ' +
      'the request that is being continued and add their words after it.',
  },
  {
    key: 'originalRequest',
    title: 'Original Request',
    guidance: 'The person\'s first request of the session, word for word, or "Same as the current request."',
  },
  {
    key: 'nextStep',
    title: 'Next Step',
    guidance:
      'What was about to happen when these turns ended: the item in progress or the last stated intention, ' +
      'with its exact target. Background, not an instruction.',
  },
  {
    key: 'taskState',
    title: 'Task State',
    guidance:
      'The plan and where each item stands, one line each: `[done]`, `[in progress]` or `[pending]`, from ' +
      'todo lists, task trackers (ids and close reasons) and commits (their messages).',
  },
  {
    key: 'userMessages',
    title: 'User Messages',
    guidance:
      'Every message the person wrote in these turns, in order, verbatim (a very long one cut in the middle). ' +
      'Leave out text the harness inserted.',
  },
  {
    key: 'constraints',
    title: 'Constraints & Corrections',
    guidance:
      'Rules, preferences and corrections the person gave (must, never, always, "no, instead …"), in their words.',
  },
  {
    key: 'filesChanged',
    title: 'Files Changed',
    guidance:
      'Every file created, modified or deleted, with its exact path, whether it was created or modified, and ' +
      'what changed: the functions, types and other identifiers added or touched.',
  },
  {
    key: 'failures',
    title: 'Failures & Fixes',
    guidance:
      'Each failure with its exact error text and what fixed it (the later step that succeeded); failures not ' +
      'fixed yet are marked as still failing.',
  },
  {
    key: 'keyDecisions',
    title: 'Key Decisions',
    guidance: 'Choices that were made and the reason for each ("because", "instead of").',
  },
  {
    key: 'pendingAsks',
    title: 'Pending User Asks',
    guidance: 'Questions or requests from the person that had not been answered when these turns ended.',
  },
  {
    key: 'activeState',
    title: 'Active State',
    guidance:
      'The state things are in: working directory, branch, running processes, the last test or build result.',
  },
  {
    key: 'earlierSummary',
    title: 'Earlier Summary',
    guidance:
      'A summary of even earlier turns that these turns started from (another tool may have written it): ' +
      'keep its facts, shortened only where it repeats the sections above.',
  },
  {
    key: 'errorLines',
    title: 'Error Lines',
    guidance: 'Error messages exactly as they appeared in tool output, one per line.',
  },
  {
    key: 'actionLog',
    title: 'Action Log',
    guidance:
      'A numbered list, oldest first: `N. ACTION target — outcome [tool: name]`, with exact targets ' +
      '(command, path, URL, query). Routine steps may be condensed.',
  },
  {
    key: 'references',
    title: 'References',
    guidance:
      'Exact strings the work depends on that are not above: files read or searched, URLs, commands, ' +
      'identifiers, configuration values, tools used.',
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

// Headings of earlier condense templates (condense-checkpoint/1) and of Hermes' templates (current, historical
// and its deterministic fallback), so their checkpoints are updated rather than summarised as text. A Map, not
// an object: a heading such as `## Constructor` must not find an inherited property and swallow its lines.
const ALIASES: ReadonlyMap<string, SectionKey> = new Map<string, SectionKey>([
  ...CHECKPOINT_SECTIONS.map((section): [string, SectionKey] => [section.title.toLowerCase(), section.key]),
  ['active task', 'currentRequest'],
  ['historical task snapshot', 'currentRequest'],
  ['goal', 'originalRequest'],
  ['constraints & preferences', 'constraints'],
  ['constraints and preferences', 'constraints'],
  ['completed actions', 'actionLog'],
  ['in progress', 'taskState'],
  ['historical in-progress state', 'taskState'],
  ['remaining work', 'taskState'],
  ['historical remaining work', 'taskState'],
  ['blocked', 'failures'],
  ['resolved questions', 'failures'],
  ['historical pending user asks', 'pendingAsks'],
  ['relevant files', 'references'],
  ['critical context', 'references'],
  ['last dropped turns', 'references'],
]);

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
    if (current === undefined) appendAll(preamble, lines);
    else {
      const text = lines.join('\n').trim();
      const before = sections.get(current);
      sections.set(current, before === undefined || before === '' ? text : `${before}\n${text}`);
    }
    lines = [];
  };
  for (const line of body.split('\n')) {
    const title = headingTitle(line);
    const key = title === undefined ? undefined : ALIASES.get(title.toLowerCase());
    if (key !== undefined) {
      flush();
      current = key;
    } else lines.push(line);
  }
  flush();
  return { sections, preamble: preamble.join('\n').trim() };
}

/**
 * The title of a `#`–`###` heading line, exactly as `/^#{1,3}\s+(.+?)\s*:?\s*$/` captures it, found in linear
 * time: that regex took fourth-degree time on a line of tabs around a colon (3,200 tabs: minutes), and previous
 * checkpoints are any text a transcript holds.
 */
export function headingTitle(line: string): string | undefined {
  let hashes = 0;
  while (line.charCodeAt(hashes) === 0x23) hashes++;
  if (hashes === 0 || hashes > 3) return undefined;
  const afterSpace = line.length - line.slice(hashes).trimStart().length;
  if (afterSpace === hashes) return undefined;
  // The tail `\s*:?\s*$` holds from `tailStart` on: `trimEnd` removes exactly what `\s` matches.
  const trimmed = line.trimEnd().length;
  const tailStart =
    line.charCodeAt(trimmed - 1) === 0x3a ? line.slice(0, trimmed - 1).trimEnd().length : trimmed;
  let terminator = afterSpace;
  while (terminator < line.length && !isLineTerminator(line.charCodeAt(terminator))) terminator++;
  // The regex gives `\s+` back one character at a time when the title cannot start after all of it.
  for (let start = afterSpace; start > hashes; start--) {
    if (start < afterSpace && isLineTerminator(line.charCodeAt(start))) terminator = start;
    const end = Math.max(start + 1, tailStart);
    if (end <= terminator) return line.slice(start, end);
  }
  return undefined;
}

/** True when a section body says nothing (`- none`, `None.`, blank). */
export function isEmptySection(text: string | undefined): boolean {
  if (text === undefined) return true;
  const trimmed = text.trim().toLowerCase();
  return trimmed === '' || /^[-*]?\s*(?:none|n\/a|nothing)\.?$/.test(trimmed);
}
