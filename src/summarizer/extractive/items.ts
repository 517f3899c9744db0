import type { SectionKey } from '../prompts/checkpoint-template.js';

/**
 * How much an item matters, lowest first. The fitter keeps items in this order until the budget is spent:
 * the person's requests, then where the work stands, then the record of it, then exact strings, details, the
 * action log, and noise (dependency folders, assets) last.
 */
export const PRIORITY = {
  request: 0,
  state: 1,
  core: 2,
  artifact: 3,
  detail: 4,
  log: 5,
  noise: 6,
} as const;

/** One priority level. */
export type Priority = (typeof PRIORITY)[keyof typeof PRIORITY];

/** One line (or group member) of a checkpoint section, with what it is worth. */
export interface Item {
  readonly section: SectionKey;
  /** The line as written, without its bullet; for grouped items, one member of the group's line. */
  readonly text: string;
  readonly priority: Priority;
  /** Among items of one priority, lower is kept first (recency, usually). */
  readonly weight: number;
  /** Position inside the section. */
  readonly order: number;
  /** Shorter renderings of the same content, tried in turn when `text` does not fit. */
  readonly alternatives?: readonly string[];
  /** Items with the same group share one line: `- group: a, b, c`. */
  readonly group?: string;
  /** An exact string (path, command, URL, error line, tool name) that need not be listed when shown already. */
  readonly artifact?: boolean;
  /** Written as is, without a bullet (request text, numbered lines, sub-bullets). */
  readonly raw?: boolean;
  /** The priority the item had before its section's share was spent (see {@link demoteBeyond}). */
  readonly demotedFrom?: Priority;
  /** Action-log number, so a run of left-out actions can be condensed into one line. */
  readonly action?: { readonly number: number; readonly tool: string };
}

/** Keeps the start and the end of a long text, marking what was cut from the middle. */
export function trimMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.max(1, Math.floor(maxChars * 0.7));
  const tail = Math.max(0, maxChars - head);
  const cutHead = safeEnd(text, head);
  const cutTail = tail === 0 ? text.length : safeStart(text, text.length - tail);
  const omitted = cutTail - cutHead;
  return `${text.slice(0, cutHead)}\n…[${omitted} characters omitted]…\n${text.slice(cutTail)}`;
}

function safeEnd(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

function safeStart(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}

/** A request's renderings, longest first: verbatim up to `caps[0]` characters, then shorter cuts. */
export function requestRenderings(
  text: string,
  caps: readonly number[],
): { text: string; alternatives: string[] } {
  const [first, ...rest] = caps.map((cap) => trimMiddle(text, cap));
  const alternatives = rest.filter((candidate, index, all) => all.indexOf(candidate) === index);
  return { text: first ?? text, alternatives: alternatives.filter((candidate) => candidate !== first) };
}

/** Characters a token stands for, roughly, when a share of a token budget is turned into a text length. */
export const CHARS_PER_TOKEN = 3.5;

/**
 * What a line spends of its section's share: its length, but for a long line never more than its tokens at
 * {@link MAX_CHARS_PER_TOKEN} characters each, so that a line the fitter prices low (a long run of white space
 * or of one repeated character) does not spend the share as if it were prose. Lines up to
 * {@link UNCOUNTED_LENGTH} characters are not counted: the cap could take little off them, and counting every
 * line of every section made a compaction about a fifth slower.
 */
export function shareCost(text: string, count: (text: string) => number): number {
  return text.length <= UNCOUNTED_LENGTH
    ? text.length
    : Math.min(text.length, count(text) * MAX_CHARS_PER_TOKEN);
}

/** Lines this long or shorter spend their length of a section's share (see {@link shareCost}). */
export const UNCOUNTED_LENGTH = 256;

/**
 * More characters per token than prose, code, paths or tool output take (3 to 5, rough estimator or o200k): past
 * it, only runs of white space or of one repeated character.
 */
export const MAX_CHARS_PER_TOKEN = 8;

/**
 * Keeps a section from taking more than its share of the budget at its own priority: going through the items
 * from the most to the least important, those past `shareChars` characters ({@link shareCost}) drop to
 * `detail` priority; they are still kept when the budget allows, and said to be left out when it does not. An
 * item larger than the whole share drops alone and spends none of it: one long line must not push every line
 * after it down.
 */
export function demoteBeyond(
  items: readonly Item[],
  shareChars: number,
  count: (text: string) => number,
): readonly Item[] {
  const order = [...items].sort((a, b) => a.priority - b.priority || a.weight - b.weight);
  const demoted = new Set<Item>();
  let used = 0;
  for (const item of order) {
    if (item.priority >= PRIORITY.detail) continue;
    const cost = shareCost(item.text, count);
    if (cost > shareChars) {
      demoted.add(item);
      continue;
    }
    used += cost;
    if (used > shareChars) demoted.add(item);
  }
  // Usually nothing goes: the items are then returned as they are, not copied.
  if (demoted.size === 0) return items;
  return items.map((item) => (demoted.has(item) ? demote(item) : item));
}

/** `item` at `detail` priority, remembering the priority it had. */
function demote(item: Item): Item {
  return { ...item, priority: PRIORITY.detail, demotedFrom: item.demotedFrom ?? item.priority };
}

/**
 * True for a line of the record proper (a request section's line, the task state, the record of the work) that
 * is not an exact string: one left out is reported by its section. Lines demoted for their section's share
 * count with the priority they had.
 */
export function isRecordLine(item: Item): boolean {
  const priority = item.demotedFrom ?? item.priority;
  return item.artifact !== true && priority > PRIORITY.request && priority <= PRIORITY.core;
}

/**
 * The numbered lines of the previous checkpoint's `section`, carried as written: the newest weighs least
 * (`baseWeight` for the last line), so the oldest are the first to go when the budget is short.
 */
export function carriedLines(
  section: SectionKey,
  lines: readonly string[],
  priority: Priority,
  baseWeight: number,
): Item[] {
  return lines.map((line, index) => ({
    section,
    text: line.trim(),
    priority,
    weight: baseWeight + lines.length - index,
    order: index,
    raw: true,
  }));
}

/** True when `text` holds one of the focus topic's lower-cased `terms`. */
export function matchesFocus(text: string, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const lower = text.toLowerCase();
  return terms.some((term) => lower.includes(term));
}

/** What matches the focus topic ranks with the record of the work, ahead of exact strings and the log. */
export function bump(priority: Priority, focused: boolean): Priority {
  return focused && priority > PRIORITY.core ? PRIORITY.core : priority;
}
