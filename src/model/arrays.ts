/*
 * Array helpers for input-sized lists. `push(...items)`, `Math.min(...values)` and `Math.max(...values)` pass one
 * argument per element and throw a RangeError past about 125,000 of them, which one response with that many
 * parallel tool calls reaches.
 */

/** Appends every item of `items` to `target`, in order. */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (let index = 0; index < items.length; index++) target.push(items[index] as T);
}

/** The smallest of `values`; `Infinity` when there are none, as `Math.min()`. */
export function minOf(values: readonly number[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const value of values) min = Math.min(min, value);
  return min;
}

/** The largest of `values`; `-Infinity` when there are none, as `Math.max()`. */
export function maxOf(values: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) max = Math.max(max, value);
  return max;
}

/** Where the first value above `after` sits in an ascending list (its length when there is none). */
export function positionAbove(list: readonly number[], after: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as number) <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A first-in, first-out list. `Array#shift` moves every remaining item once an array is large (V8 stops trimming
 * it in place), so emptying a long list with it is quadratic; taking from a queue is constant time.
 */
export class Queue<T> implements Iterable<T> {
  private items: (T | undefined)[];
  private head = 0;

  constructor(items: Iterable<T> = []) {
    this.items = [...items];
  }

  /** How many items are queued. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Adds an item at the end. */
  push(item: T): void {
    this.items.push(item);
  }

  /** Removes and returns the first item, as `shift` would. */
  take(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head] as T;
    this.items[this.head++] = undefined;
    // Drop the taken slots once they are most of the array, so memory stays proportional to what is queued.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes and returns the last item, as `pop` would. */
  takeLast(): T | undefined {
    return this.size === 0 ? undefined : (this.items.pop() as T);
  }

  /** Removes and returns every item, in order. */
  takeAll(): T[] {
    const all = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return all;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let index = this.head; index < this.items.length; index++) yield this.items[index] as T;
  }
}

/**
 * Per index, where the run of items accepted by `inRun` that ends there starts (index + 1 when the item is not
 * accepted), so "every item from `from` to `to` is accepted" is `starts[to] <= from`, answered at once instead of by
 * a walk per question.
 */
export function runStarts<T>(items: readonly T[], inRun: (item: T) => boolean): number[] {
  const starts: number[] = new Array(items.length);
  for (let index = 0; index < items.length; index++) {
    // An accepted item continues the run of the one before it (which, when not accepted, starts one past itself).
    starts[index] = !inRun(items[index] as T) ? index + 1 : index === 0 ? 0 : (starts[index - 1] as number);
  }
  return starts;
}
