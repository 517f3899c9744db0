import { isLineTerminator } from '../../model/characters.js';
import {
  CHECKPOINT_SECTIONS,
  type CheckpointSection,
  EMPTY_SECTION,
  type SectionKey,
  sectionHeading,
} from '../prompts/checkpoint-template.js';
import type { Item } from './items.js';

/** A rendered checkpoint body. */
export interface RenderedItems {
  readonly text: string;
}

/**
 * Turns Markdown headings inside copied text (a request that contains `## Blocked`) into level-4 headings, so
 * the next pass does not mistake them for sections. The `##` a line started with stays in the text.
 */
function demoteHeadings(body: string): string {
  // The regex tries every line; most bodies have no `#` that starts a line (`issue #15` does not).
  if (!hasLineStartingHash(body)) return body;
  return body.replace(
    /^([ \t]*)(#{1,3})(?=[ \t])/gm,
    (_match, indent: string, hashes: string) => `${indent}${'#'.repeat(4 - hashes.length)}${hashes}`,
  );
}

/** True when some `#` of `body` has only spaces and tabs before it on its line (as `^` reads lines with `m`). */
function hasLineStartingHash(body: string): boolean {
  for (let hash = body.indexOf('#'); hash !== -1; hash = body.indexOf('#', hash + 1)) {
    let start = hash;
    while (start > 0 && (body.charCodeAt(start - 1) === 0x20 || body.charCodeAt(start - 1) === 0x09)) start--;
    if (start === 0 || isLineTerminator(body.charCodeAt(start - 1))) return true;
  }
  return false;
}

/** `(12–17. 6 condensed: Bash ×4, Read ×2)` for a run of action-log entries that were left out. */
function condensedRun(run: readonly { number: number; tool: string }[]): string {
  const first = run[0]?.number ?? 0;
  const last = run[run.length - 1]?.number ?? first;
  const tools = new Map<string, number>();
  for (const entry of run) tools.set(entry.tool, (tools.get(entry.tool) ?? 0) + 1);
  const list = [...tools].map(([tool, count]) => `${tool} ×${count}`).join(', ');
  return `${first === last ? first : `${first}–${last}`}. (${run.length} condensed: ${list})`;
}

function sectionLines(items: readonly Item[], every: readonly Item[]): string[] {
  const lines: string[] = [];
  const groups = new Map<string, string[]>();
  const groupAt = new Map<string, number>();
  const keptActions = new Set<number>();
  for (const item of items) if (item.action !== undefined) keptActions.add(item.action.number);
  const skipped = every.filter((item) => item.action !== undefined && !keptActions.has(item.action.number));
  // No `flush` closure: under tsx each one made costs a `defineProperty` for its name, once per section.
  let run: { number: number; tool: string }[] = [];
  const sorted = inOrder(items) ? items : [...items].sort((a, b) => a.order - b.order);
  let pending = 0;
  for (const item of sorted) {
    if (item.action !== undefined) {
      for (
        ;
        pending < skipped.length && (skipped[pending]?.action?.number ?? 0) < item.action.number;
        pending++
      ) {
        const entry = skipped[pending]?.action;
        if (entry !== undefined) run.push(entry);
      }
      if (run.length > 0) {
        lines.push(condensedRun(run));
        run = [];
      }
    }
    if (item.group !== undefined) {
      const members = groups.get(item.group);
      if (members === undefined) {
        groups.set(item.group, [item.text]);
        groupAt.set(item.group, lines.length);
        lines.push('');
      } else members.push(item.text);
      continue;
    }
    lines.push(item.raw === true ? item.text : `- ${item.text}`);
  }
  for (; pending < skipped.length; pending++) {
    const entry = skipped[pending]?.action;
    if (entry !== undefined) run.push(entry);
  }
  if (run.length > 0) lines.push(condensedRun(run));
  for (const [group, members] of groups) {
    const separator = members.some((member) => member.includes(', ')) ? '; ' : ', ';
    lines[groupAt.get(group) as number] = `- ${group}: ${members.join(separator)}`;
  }
  return lines;
}

/** True when `items` are already by `order` (a stable sort would leave them as they are; NaN goes to the sort). */
function inOrder(items: readonly Item[]): boolean {
  for (let index = 1; index < items.length; index++)
    if (!((items[index - 1] as Item).order <= (items[index] as Item).order)) return false;
  return true;
}

/** Each section's heading, in template order (looking one up by key searches the template). */
const HEADINGS = CHECKPOINT_SECTIONS.map((section) => sectionHeading(section.key));

/**
 * Renders kept items as the checkpoint body: every section of the template in order, `- none` under an empty
 * one (`compact` leaves empty sections but Current Request out, for very small budgets). Runs of action-log entries that were left
 * out become one condensed line each.
 */
export function renderItems(
  kept: readonly Item[],
  compact: boolean,
  every: readonly Item[] = kept,
): RenderedItems {
  const bySection = new Map<SectionKey, Item[]>();
  for (const item of kept) {
    const list = bySection.get(item.section);
    if (list === undefined) bySection.set(item.section, [item]);
    else list.push(item);
  }
  const blocks: string[] = [];
  for (let index = 0; index < CHECKPOINT_SECTIONS.length; index++) {
    const section = CHECKPOINT_SECTIONS[index] as CheckpointSection;
    const items = bySection.get(section.key) ?? [];
    const lines =
      items.length === 0
        ? []
        : sectionLines(
            items,
            section.key === 'actionLog' ? every.filter((item) => item.action !== undefined) : [],
          );
    if (lines.length === 0 && compact && section.key !== 'currentRequest') continue;
    const body = lines.length === 0 ? EMPTY_SECTION : demoteHeadings(lines.join('\n'));
    blocks.push(`${HEADINGS[index] as string}\n${body}`);
  }
  return { text: blocks.join('\n\n') };
}

const EMPTY_RENDERINGS: [string | undefined, string | undefined] = [undefined, undefined];

/** `renderItems([], compact).text`: the same every time, so rendered once. */
export function emptyRendering(compact: boolean): string {
  const slot = compact ? 1 : 0;
  const known = EMPTY_RENDERINGS[slot];
  if (known !== undefined) return known;
  const text = renderItems([], compact).text;
  EMPTY_RENDERINGS[slot] = text;
  return text;
}
