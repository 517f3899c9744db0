import { CHECKPOINT_SECTIONS } from '../prompts/checkpoint-template.js';
import { type Item, isRecordLine, PRIORITY } from './items.js';
import { LaterLookups } from './later-lookups.js';
import { emptyRendering, renderItems } from './render-items.js';
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

/** Tokens of the checkpoint with nothing kept, with every section (`full`) and compact. */
export interface EmptyTokens {
  readonly full: number;
  readonly compact: number;
}

/** {@link EmptyTokens} by `count`. */
export function emptyTokens(count: (text: string) => number): EmptyTokens {
  return { full: count(emptyRendering(false)), compact: count(emptyRendering(true)) };
}

/** What fitting left out, as it goes (a record, not closures: see `sectionLines`). */
interface Dropped {
  items: number;
  artifacts: number;
  request: boolean;
  readonly lines: Map<Item['section'], number>;
}

function drop(dropped: Dropped, item: Item): void {
  dropped.items++;
  if (item.artifact === true) dropped.artifacts++;
  if (item.priority === PRIORITY.request) dropped.request = true;
  if (isRecordLine(item)) dropped.lines.set(item.section, (dropped.lines.get(item.section) ?? 0) + 1);
}

/**
 * Chooses what the checkpoint keeps within `budget` tokens: items in order of priority (then weight), each
 * counted once, each at its longest rendering that still fits; an artifact already visible in what was kept
 * before it is not listed again. The rendering is then measured whole and, while it is over, the least
 * important kept items go. Linear in the number of items (plus a few re-renders). `empty` is what `count` gives
 * the empty checkpoint (the same for every call with one counter).
 */
export function fitItems(
  items: readonly Item[],
  budget: number,
  count: (text: string) => number,
  empty: EmptyTokens = emptyTokens(count),
): FittedItems {
  const ranked = [...items].sort(
    (a, b) => a.priority - b.priority || a.weight - b.weight || a.order - b.order,
  );
  // Small budgets leave empty sections out: each section's heading is paid for when its first item goes in.
  const full = empty.full;
  const compact = budget < full * 4;
  const headings = new Set<Item['section']>(['currentRequest']);
  let used = compact ? empty.compact : full;
  const kept: Item[] = [];
  const shown = new Set<string>();
  // An artifact already visible whole in a kept line is not listed again (one the lookup misses is merely listed
  // twice). The pieces are looked for only when some artifact ranked after the line could be one of them.
  let visible: VisiblePieces | undefined;
  const later = new LaterLookups(
    ranked.map((item) => (item.artifact === true ? bare(item.text) : undefined)),
  );
  const dropped: Dropped = { items: 0, artifacts: 0, request: false, lines: new Map() };
  for (let rank = 0; rank < ranked.length; rank++) {
    const item = ranked[rank] as Item;
    if (item.artifact === true && shown.has(bare(item.text))) continue;
    const alternatives = item.alternatives ?? [];
    const heading = compact && !headings.has(item.section) ? count(`## ${titleOf(item.section)}\n\n`) : 0;
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
      drop(dropped, item);
      continue;
    }
    used += cost;
    headings.add(item.section);
    const placed = chosen === item.text ? item : { ...item, text: chosen };
    kept.push(placed);
    if (item.artifact !== true && later.mayShow(chosen, rank)) {
      visible ??= new VisiblePieces(artifactPieces(items));
      visible.collect(chosen, shown);
    }
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
      drop(dropped, gone);
    }
    rendered = renderItems(kept, compact, items);
    tokens = count(rendered.text);
  }
  return {
    text: rendered.text,
    tokens,
    droppedArtifacts: dropped.artifacts,
    droppedItems: dropped.items,
    requestLeftOut: dropped.request,
    droppedLines: new Map(
      CHECKPOINT_SECTIONS.flatMap(({ key }) => {
        const lines = dropped.lines.get(key);
        return lines === undefined ? [] : [[key, lines] as const];
      }),
    ),
  };
}

/** The artifacts as a line may show them (without the backticks around a command). */
function artifactPieces(items: readonly Item[]): Set<string> {
  const pieces = new Set<string>();
  for (const item of items) if (item.artifact === true) pieces.add(bare(item.text));
  return pieces;
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
