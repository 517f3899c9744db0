import type { Classification } from './classify-messages.js';

/** One row of the side-by-side view: a before message, an after message, or both. */
export interface LayoutRow {
  readonly before?: number;
  readonly after?: number;
  /** True when the two messages are the same message (kept or rewritten), not merely neighbours. */
  readonly paired: boolean;
}

/**
 * Rows in transcript order: each after message next to the before message it came from, and messages without
 * a counterpart (the folded middle, the new checkpoint) zipped side by side so a long folded run sits next
 * to the checkpoint that replaced it instead of leaving a blank column.
 */
export function layoutRows(classification: Classification): LayoutRow[] {
  const rows: LayoutRow[] = [];
  let next = 0;
  let loose = { before: [] as number[], after: [] as number[] };
  const flush = (): void => {
    const count = Math.max(loose.before.length, loose.after.length);
    for (let at = 0; at < count; at++) {
      const before = loose.before[at];
      const after = loose.after[at];
      rows.push({
        ...(before === undefined ? {} : { before }),
        ...(after === undefined ? {} : { after }),
        paired: false,
      });
    }
    loose = { before: [], after: [] };
  };
  for (const item of classification.after) {
    const source = item.status === 'new' && item.counterpart < 0 ? -1 : item.counterpart;
    if (source < 0 || source < next) {
      loose.after.push(item.index);
      continue;
    }
    for (let at = next; at < source; at++) loose.before.push(at);
    flush();
    rows.push({ before: source, after: item.index, paired: true });
    next = source + 1;
  }
  for (let at = next; at < classification.before.length; at++) loose.before.push(at);
  flush();
  return rows;
}
