import { EMPTY_SECTION, type SectionKey, sectionHeading } from '../prompts/checkpoint-template.js';
import { bulletList, type Draft, numberedActions } from './build-draft.js';
import { clip } from './sentences.js';

/** How much of each kind of content a rendering keeps; the budget fitter turns these down step by step. */
export interface Knobs {
  readonly taskChars: number;
  readonly goalChars: number;
  readonly constraints: number;
  readonly decisions: number;
  readonly inProgress: number;
  readonly pending: number;
  readonly resolved: number;
  readonly remaining: number;
  readonly previousContext: number;
  readonly shortOutcomes: boolean;
  /** Previous Completed Actions lines kept (the latest ones). */
  readonly previousActions: number;
  /** New actions kept whole (the latest ones, plus those matching the focus topic). */
  readonly actions: number;
  /** Ledger entries left out, lowest value first. */
  readonly ledgerDrop: number;
}

/** Knobs that keep everything. */
export const FULL_KNOBS: Knobs = {
  taskChars: 1500,
  goalChars: 400,
  constraints: 12,
  decisions: 10,
  inProgress: 4,
  pending: 3,
  resolved: 8,
  remaining: 10,
  previousContext: 20,
  shortOutcomes: false,
  previousActions: Number.POSITIVE_INFINITY,
  actions: Number.POSITIVE_INFINITY,
  ledgerDrop: 0,
};

/** A rendered body and how many artifacts had to be left out. */
export interface RenderedBody {
  readonly text: string;
  readonly ledgerSize: number;
  readonly dropped: number;
}

interface LedgerEntry {
  readonly text: string;
  readonly group:
    | 'edited'
    | 'created'
    | 'read'
    | 'searched'
    | 'mentioned'
    | 'url'
    | 'command'
    | 'error'
    | 'tool';
  /** Lower is dropped later. */
  readonly rank: number;
  readonly order: number;
}

const RANKS: Readonly<Record<LedgerEntry['group'], number>> = {
  tool: 0,
  edited: 1,
  created: 1,
  command: 2,
  error: 2,
  read: 3,
  url: 3,
  searched: 4,
  mentioned: 5,
};

function keepTask(task: string, max: number): string {
  if (task === '') return EMPTY_SECTION;
  if (task.length <= max) return task;
  const head = Math.floor(max * 0.7);
  return `${task.slice(0, head)}\n…[${task.length - max} characters of the request omitted]…\n${task.slice(task.length - (max - head))}`;
}

function actionKeepSet(draft: Draft, count: number): Set<number> {
  const keep = new Set<number>();
  const total = draft.actions.length;
  for (let index = Math.max(0, total - count); index < total; index++) keep.add(index);
  if (draft.focusTerms.length > 0) {
    draft.actions.forEach((action, index) => {
      const line = `${action.target} ${action.tool}`.toLowerCase();
      if (draft.focusTerms.some((term) => line.includes(term))) keep.add(index);
    });
  }
  return keep;
}

function completedActions(draft: Draft, knobs: Knobs): string {
  const previous = draft.previousActions;
  const kept = previous.slice(Math.max(0, previous.length - knobs.previousActions));
  const out: string[] = [];
  if (kept.length < previous.length) {
    const count = previous.length - kept.length;
    out.push(`(${count} earlier action line${count === 1 ? '' : 's'} condensed)`);
  }
  out.push(...kept);
  out.push(...numberedActions(draft, actionKeepSet(draft, knobs.actions), knobs.shortOutcomes));
  return out.length === 0 ? EMPTY_SECTION : out.join('\n');
}

function mainSections(draft: Draft, knobs: Knobs): Map<SectionKey, string[]> {
  const goal = draft.goal === '' ? 'Same as the active task.' : clip(draft.goal, knobs.goalChars);
  return new Map<SectionKey, string[]>([
    ['activeTask', [keepTask(draft.task, knobs.taskChars)]],
    ['goal', [goal]],
    ['constraints', [bulletList(draft.constraints, knobs.constraints)]],
    ['completedActions', [completedActions(draft, knobs)]],
    ['activeState', [bulletList(draft.state, 8, 400)]],
    ['inProgress', [bulletList(draft.inProgress, knobs.inProgress, 200)]],
    ['blocked', [bulletList(draft.blocked, Number.POSITIVE_INFINITY, 1000)]],
    ['keyDecisions', [bulletList(draft.decisions, knobs.decisions)]],
    ['resolvedQuestions', [bulletList(draft.resolved, knobs.resolved, 1000)]],
    ['pendingUserAsks', [bulletList(draft.pending, knobs.pending, 200)]],
    ['relevantFiles', []],
    ['remainingWork', [bulletList(draft.remaining, knobs.remaining, 200)]],
    ['criticalContext', [`- ${draft.summary}`, ...focusLine(draft), ...previousContext(draft, knobs)]],
  ]);
}

function focusLine(draft: Draft): string[] {
  return draft.focusTopic === undefined ? [] : [`- Focus requested: ${clip(draft.focusTopic, 200)}`];
}

function previousContext(draft: Draft, knobs: Knobs): string[] {
  const lines = draft.previousContext;
  return lines.slice(Math.max(0, lines.length - knobs.previousContext));
}

function ledgerEntries(draft: Draft): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  const seen = new Set<string>();
  const add = (text: string, group: LedgerEntry['group']) => {
    const key = `${group === 'tool' ? 't' : 'a'}:${text}`;
    if (text === '' || seen.has(key)) return;
    seen.add(key);
    entries.push({ text, group, rank: RANKS[group], order: entries.length });
  };
  const { files, artifacts } = draft;
  for (const path of files.edited) add(path, 'edited');
  for (const path of files.created) add(path, 'created');
  for (const path of files.read) add(path, 'read');
  for (const path of files.searched) add(path, 'searched');
  for (const path of artifacts.paths) add(path, 'mentioned');
  for (const path of draft.previousArtifacts.paths) add(path, 'mentioned');
  for (const url of artifacts.urls) add(url, 'url');
  for (const url of draft.previousArtifacts.urls) add(url, 'url');
  for (const command of artifacts.commands) add(command, 'command');
  for (const line of artifacts.errorLines) add(line, 'error');
  for (const tool of artifacts.toolNames) add(tool, 'tool');
  return entries;
}

const FREE_RANK = 6;

// Files are listed by role even when an action line already names them: the list is what the agent scans.
const ALWAYS_LISTED = new Set<LedgerEntry['group']>(['edited', 'created', 'read']);

function ledgerLines(entries: readonly LedgerEntry[]): { files: string[]; context: string[] } {
  const group = (name: LedgerEntry['group']) =>
    entries.filter((entry) => entry.group === name).map((entry) => entry.text);
  const files: string[] = [];
  const fileGroups: [LedgerEntry['group'], string][] = [
    ['edited', 'edited'],
    ['created', 'created'],
    ['read', 'read'],
    ['searched', 'searched or listed'],
    ['mentioned', 'also mentioned'],
  ];
  for (const [name, label] of fileGroups) {
    const items = group(name);
    if (items.length > 0) files.push(`- ${label}: ${items.join(', ')}`);
  }
  const context: string[] = [];
  const urls = group('url');
  if (urls.length > 0) context.push(`- URLs: ${urls.join(' ')}`);
  const commands = group('command');
  if (commands.length > 0)
    context.push(`- Commands also run: ${commands.map((command) => `\`${command}\``).join('; ')}`);
  const errors = group('error');
  if (errors.length > 0) context.push('- Error lines seen:', ...errors.map((line) => `  - ${line}`));
  const tools = group('tool');
  if (tools.length > 0) context.push(`- Tools also used: ${tools.join(', ')}`);
  return { files, context };
}

/**
 * Turns Markdown headings inside copied text (a request that contains `## Blocked`) into level-4 headings, so
 * the next pass does not mistake them for sections. The `##` a line started with stays in the text.
 */
function demoteHeadings(body: string): string {
  return body.replace(
    /^([ \t]*)(#{1,3})(?=[ \t])/gm,
    (_match, indent: string, hashes: string) => `${indent}${'#'.repeat(4 - hashes.length)}${hashes}`,
  );
}

/**
 * The strings a reader can see whole in the text: every word (quotes, brackets and trailing punctuation
 * removed), every backtick span and every line without its bullet. Looking an artifact up here instead of
 * searching the text keeps rendering linear; an artifact missed by this test is merely listed twice.
 */
function visiblePieces(text: string): Set<string> {
  const pieces = new Set<string>();
  for (const word of text.split(/[\s`'"()[\],;]+/)) {
    if (word === '') continue;
    pieces.add(word);
    pieces.add(word.replace(/[.:!?]+$/, ''));
  }
  for (const match of text.matchAll(/`([^`\n]+)`/g)) pieces.add(match[1] as string);
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    pieces.add(trimmed);
    pieces.add(trimmed.replace(/^(?:[-*]|\d+\.)\s+/, ''));
  }
  return pieces;
}

/** Renders a draft with the given knobs; artifacts the sections do not already show go into a ledger. */
export function renderDraft(draft: Draft, knobs: Knobs): RenderedBody {
  const sections = mainSections(draft, knobs);
  const shownPieces = visiblePieces([...sections.values()].flat().join('\n'));
  const needed: LedgerEntry[] = [];
  for (const entry of ledgerEntries(draft)) {
    const shown = shownPieces.has(entry.text);
    // A file already named by an action line costs nothing to leave out of the list, so it goes first.
    if (!shown) needed.push(entry);
    else if (ALWAYS_LISTED.has(entry.group)) needed.push({ ...entry, rank: FREE_RANK });
  }
  const dropOrder = needed
    .filter((entry) => entry.rank > 0)
    .sort((a, b) => b.rank - a.rank || a.order - b.order);
  const dropCount = Math.min(knobs.ledgerDrop, dropOrder.length);
  const dropped = new Set(dropOrder.slice(0, dropCount));
  const lost = dropOrder.slice(0, dropCount).filter((entry) => entry.rank !== FREE_RANK).length;
  const ledger = ledgerLines(needed.filter((entry) => !dropped.has(entry)));
  sections.get('relevantFiles')?.push(...ledger.files);
  const context = sections.get('criticalContext');
  context?.push(...ledger.context);
  if (lost > 0)
    context?.push(`- ${lost} more paths, URLs, commands or error lines were left out to fit the budget`);
  const text = [...sections]
    .map(
      ([key, body]) =>
        `${sectionHeading(key)}\n${body.length === 0 ? EMPTY_SECTION : demoteHeadings(body.join('\n'))}`,
    )
    .join('\n\n');
  return { text, ledgerSize: dropOrder.length, dropped: lost };
}
