import { Queue } from '../../model/arrays.js';

/**
 * The ids of the latest assistant message's tool calls that no result has answered yet, in call order.
 * Answering an id and taking the next unanswered one are constant time (amortized): filtering a list at every
 * result was quadratic in a message with many parallel calls.
 */
export class PendingCalls {
  private ids: readonly string[] = [];
  private answered: boolean[] = [];
  /** Every index before this one is answered. */
  private first = 0;
  private unanswered = 0;
  /** The unanswered indices of each id, in order. */
  private indices = new Map<string, Queue<number>>();

  /** How many calls are still unanswered. */
  get size(): number {
    return this.unanswered;
  }

  /** Starts over with the calls of a new assistant message. */
  reset(ids: readonly string[]): void {
    this.ids = ids;
    this.answered = new Array<boolean>(ids.length).fill(false);
    this.first = 0;
    this.unanswered = ids.length;
    this.indices = new Map();
    ids.forEach((id, index) => {
      const list = this.indices.get(id);
      if (list === undefined) this.indices.set(id, new Queue([index]));
      else list.push(index);
    });
  }

  /** Marks every call with this id answered. */
  answer(id: string): void {
    const list = this.indices.get(id);
    if (list === undefined) return;
    for (const index of list) this.answered[index] = true;
    this.unanswered -= list.size;
    this.indices.delete(id);
  }

  /** The first unanswered call's id, now answered; `undefined` when every call is. */
  take(): string | undefined {
    while (this.first < this.ids.length && this.answered[this.first] === true) this.first++;
    if (this.first >= this.ids.length) return undefined;
    const id = this.ids[this.first] as string;
    this.answered[this.first] = true;
    this.unanswered--;
    // No earlier index of this id is unanswered: it is the first of its list.
    const list = this.indices.get(id) as Queue<number>;
    if (list.size === 1) this.indices.delete(id);
    else list.take();
    return id;
  }
}
