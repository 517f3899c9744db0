import { appendAll } from '../../model/arrays.js';
import { isJsonObject } from '../../model/json.js';
import { asMessageRecord, hasToolResults, responseIdOf } from './records.js';

/**
 * Inserts, after the record holding each call, the side-branch record holding its result when the order lacks it
 * (Claude Code parents each parallel result to the record of its own call, so one walk keeps only one of them).
 */
export function reattachResults(records: readonly unknown[], order: readonly number[]): number[] {
  const inChain = new Set(order);
  const answered = new Set<string>();
  const resultRecord = new Map<string, number>();
  records.forEach((record, index) => {
    for (const id of blockIds(record, 'tool_result', 'tool_use_id')) {
      if (inChain.has(index)) answered.add(id);
      if (!resultRecord.has(id)) resultRecord.set(id, index);
    }
  });
  const out: number[] = [];
  for (const index of order) {
    out.push(index);
    for (const id of blockIds(records[index], 'tool_use', 'id')) {
      const result = resultRecord.get(id);
      if (answered.has(id) || result === undefined || inChain.has(result)) continue;
      out.push(result);
      inChain.add(result);
      for (const done of blockIds(records[result], 'tool_result', 'tool_use_id')) answered.add(done);
    }
  }
  return out;
}

/**
 * Puts each response and the tool results that follow it in file order. A response's records and its results
 * can reach the chain in another order (the walk keeps one branch of parallel calls and the rest is spliced in
 * after it), but the file is written as things happened: calls A, B, C in that order, their results in theirs.
 * A stretch runs from an assistant record over the records of the same response and the tool-result records
 * after them; records are sorted by position only inside such a stretch, so turns never move.
 */
export function fileOrderWithinResponses(records: readonly unknown[], order: readonly number[]): number[] {
  const out: number[] = [];
  let stretch: number[] = [];
  let response: string | undefined;
  const flush = (): void => {
    stretch.sort((left, right) => left - right);
    appendAll(out, stretch);
    stretch = [];
  };
  for (const index of order) {
    const view = asMessageRecord(records[index]);
    const id = view === undefined ? undefined : responseIdOf(view);
    if (view?.type === 'assistant') {
      if (id === undefined || id !== response) flush();
      response = id;
      stretch.push(index);
    } else if (view !== undefined && hasToolResults(view) && response !== undefined) stretch.push(index);
    else {
      flush();
      response = undefined;
      out.push(index);
    }
  }
  flush();
  return out;
}

function blockIds(record: unknown, type: string, key: string): string[] {
  const view = asMessageRecord(record);
  if (view === undefined || typeof view.content === 'string') return [];
  return view.content.flatMap((block) =>
    isJsonObject(block) && block['type'] === type && typeof block[key] === 'string'
      ? [block[key] as string]
      : [],
  );
}
