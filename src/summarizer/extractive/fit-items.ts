import { CHECKPOINT_SECTIONS } from '../prompts/checkpoint-template.js';
import { type Item, isRecordLine, PRIORITY } from './items.js';
import { LaterLookups } from './later-lookups.js';
import { renderItems } from './render-items.js';
import { VisiblePieces } from './visible-pieces.js';

/** The items kept, the rendered body, and what had to go. */
export interface FittedItems {
  readonly text: string;
  readonly tokens: number;
  /** Artifacts (paths, URLs, commands, error lines, tool names) left out for the budget. */
  readonly droppedArtifacts: number;
  /** Items of any kind left out for the budget. */
  readonly droppedItems: number;
  /** True when a request text (current or original) had to be left out. */
  readonly requestLeftOut: boolean;
  /**
   * Lines of the record ({@link isRecordLine}: task state, the person's messages, files, failures, constraints…)
   * left out for the budget, by section in template order; artifacts and request texts are counted above.
   */
  readonly droppedLines: ReadonlyMap<Item['section'], number>;
}

function bare(text: string): string {
  return text.startsWith('`') && text.endsWith('`') ? text.slice(1, -1) : text;
}

/**
 * Chooses what the checkpoint keeps within `budget` tokens: items in order of priority (then weight), each
 * counted once, each at its longest rendering that still fits; an artifact already visible in what was kept
 * before it is not listed again. The rendering is then measured whole and, while it is over, the least
 * important kept items go. Linear in the number of items (plus a few re-renders).
 */
export function fitItems(
  items: readonly Item[],
  budget: number,
  count: (text: string) => number,
): FittedItems {
  const ranked = [...items].sort(
    (a, b) => a.priority - b.priority || a.weight - b.weight || a.order - b.order,
  );
  // Small budgets leave empty sections out: each section's heading is paid for when its first item goes in.
  const full = count(renderItems([], false).text);
  const compact = budget < full * 4;
  const headings = new Set<Item['section']>(['currentRequest']);
  const headingCost = (section: Item['section']) =>
    compact && !headings.has(section) ? count(`## ${titleOf(section)}\n\n`) : 0;
  let used = compact ? count(renderItems([], true).text) : full;
  const kept: Item[] = [];
  const shown = new Set<string>();
  const artifacts = new Set<string>();
  for (const item of items) if (item.artifact === true) artifacts.add(bare(item.text));
  // An artifact already visible whole in a kept line is not listed again (one the lookup misses is merely listed
  // twice).
  const visible = new VisiblePieces(artifacts);
  const later = new LaterLookups(
    ranked.map((item) => (item.artifact === true ? bare(item.text) : undefined)),
  );
  let droppedArtifacts = 0;
  let droppedItems = 0;
  let requestMissing = false;
  const droppedLines = new Map<Item['section'], number>();
  const drop = (item: Item) => {
    droppedItems++;
    if (item.artifact === true) droppedArtifacts++;
    if (item.priority === PRIORITY.request) requestMissing = true;
    if (isRecordLine(item)) droppedLines.set(item.section, (droppedLines.get(item.section) ?? 0) + 1);
  };
  for (let rank = 0; rank < ranked.length; rank++) {
    const item = ranked[rank] as Item;
    if (item.artifact === true && shown.has(bare(item.text))) continue;
    const alternatives = item.alternatives ?? [];
    const heading = headingCost(item.section);
    let chosen: string | undefined;
    let cost = 0;
    for (let index = -1; index < alternatives.length; index++) {
      const option = index === -1 ? item.text : (alternatives[index] as string);
      cost = count(option) + 1 + heading;
      if (used + cost <= budget) {
        chosen = option;
        break;
      }
    }
    if (chosen === undefined) {
      drop(item);
      continue;
    }
    used += cost;
    headings.add(item.section);
    const placed = chosen === item.text ? item : { ...item, text: chosen };
    kept.push(placed);
    if (item.artifact !== true && later.mayShow(chosen, rank)) visible.collect(chosen, shown);
  }
  // Estimates add up per line; the whole text may differ a little (group labels, condensed runs).
  let rendered = renderItems(kept, compact, items);
  let tokens = count(rendered.text);
  while (tokens > budget && kept.length > 0) {
    const excess = tokens - budget;
    let freed = 0;
    while (freed < excess && kept.length > 0) {
      const worst = worstIndex(kept);
      const [gone] = kept.splice(worst, 1);
      if (gone === undefined) break;
      freed += count(gone.text) + 1;
      drop(gone);
    }
    rendered = renderItems(kept, compact, items);
    tokens = count(rendered.text);
  }
  return {
    text: rendered.text,
    tokens,
    droppedArtifacts,
    droppedItems,
    requestLeftOut: requestMissing,
    droppedLines: new Map(
      CHECKPOINT_SECTIONS.flatMap(({ key }) => {
        const lines = droppedLines.get(key);
        return lines === undefined ? [] : [[key, lines] as const];
      }),
    ),
  };
}

function worstIndex(kept: readonly Item[]): number {
  let worst = 0;
  for (let index = 1; index < kept.length; index++) {
    const a = kept[index] as Item;
    const b = kept[worst] as Item;
    if (a.priority > b.priority || (a.priority === b.priority && a.weight > b.weight)) worst = index;
  }
  return worst;
}

/** The heading of `section`, as the checkpoint writes it. */
export function titleOf(section: Item['section']): string {
  return CHECKPOINT_SECTIONS.find((candidate) => candidate.key === section)?.title ?? section;
}
