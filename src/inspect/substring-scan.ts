/**
 * Which of many patterns occur in a stream of texts, reading each text once whatever the number of patterns
 * (Aho–Corasick over UTF-16 code units, so "occurs in" is exactly `text.includes(pattern)`). Asking
 * `text.includes` once per pattern is quadratic when both the patterns and the texts grow, as the prompt queue
 * of a long session does.
 */

/** A scan in progress; see {@link substringScan}. */
export interface SubstringScan {
  /**
   * Reads `text` and returns the indexes (into the patterns given) of the patterns it holds that no earlier text
   * held: each index comes back once over the whole scan. Stops reading as soon as every pattern is found.
   */
  scan(text: string): number[];
  /** True once every pattern has been found: later texts need not be read. */
  readonly complete: boolean;
}

const NO_CHILD = -1;

/**
 * The automaton's nodes as parallel arrays; node 0 is the root (the empty prefix). Most nodes of a trie of
 * prompts have one child, so a node's first child sits inline and only branching nodes get a map: a map per node
 * cost more to build than the scan that uses it.
 */
interface Automaton {
  /** Code unit of each node's first child, or {@link NO_CHILD}. */
  readonly firstCode: Int32Array;
  readonly firstChild: Int32Array;
  /** The other children of branching nodes, by code unit. */
  readonly moreChildren: ReadonlyMap<number, Map<number, number>>;
  /** The root's next node for every code unit (the root itself where no pattern starts with it). */
  readonly fromRoot: Int32Array;
  /** The longest proper suffix of the node's prefix that is also a prefix of some pattern. */
  readonly fail: Int32Array;
  /** The nearest node along the fail chain (the node itself first) where a pattern ends, else -1. */
  readonly output: Int32Array;
  /** Pattern indexes ending exactly at each node (several when patterns repeat). */
  readonly ends: ReadonlyMap<number, number[]>;
}

/** A scan for `patterns`; an empty pattern is in every text, so the first `scan` finds it. */
export function substringScan(patterns: readonly string[]): SubstringScan {
  const { fromRoot, fail, output, ends, ...trie } = build(patterns);
  const found = new Uint8Array(fail.length);
  let remaining = ends.size;
  const scan = {
    complete: remaining === 0,
    scan(text: string): number[] {
      const out: number[] = [];
      if (remaining === 0) return out;
      // Each node found marks its whole output chain, so a chain is followed only up to its first found node.
      const report = (node: number): void => {
        for (let at = node; at !== -1 && found[at] === 0; at = output[fail[at] as number] as number) {
          found[at] = 1;
          remaining--;
          for (const index of ends.get(at) as number[]) out.push(index);
        }
      };
      report(output[0] as number);
      // A match never spans two texts: each starts from the root.
      let state = 0;
      for (let index = 0; index < text.length && remaining > 0; index++) {
        const code = text.charCodeAt(index);
        for (;;) {
          if (state === 0) {
            state = fromRoot[code] as number;
            break;
          }
          const next = childOf(trie, state, code);
          if (next !== NO_CHILD) {
            state = next;
            break;
          }
          state = fail[state] as number;
        }
        const hit = output[state] as number;
        if (hit > 0 && found[hit] === 0) report(hit);
      }
      scan.complete = remaining === 0;
      return out;
    },
  };
  return scan;
}

type Trie = Pick<Automaton, 'firstCode' | 'firstChild' | 'moreChildren'>;

function childOf(trie: Trie, node: number, code: number): number {
  const first = trie.firstCode[node] as number;
  if (first === code) return trie.firstChild[node] as number;
  if (first === NO_CHILD) return NO_CHILD;
  return trie.moreChildren.get(node)?.get(code) ?? NO_CHILD;
}

function build(patterns: readonly string[]): Automaton {
  // A trie has at most one node per pattern character, plus the root.
  const size = patterns.reduce((sum, pattern) => sum + pattern.length, 1);
  const firstCode = new Int32Array(size).fill(NO_CHILD);
  const firstChild = new Int32Array(size);
  const moreChildren = new Map<number, Map<number, number>>();
  const trie = { firstCode, firstChild, moreChildren };
  const ends = new Map<number, number[]>();
  const fail = new Int32Array(size);
  const output = new Int32Array(size).fill(-1);
  let count = 1;
  for (let patternIndex = 0; patternIndex < patterns.length; patternIndex++) {
    const pattern = patterns[patternIndex] as string;
    let node = 0;
    for (let index = 0; index < pattern.length; index++) {
      const code = pattern.charCodeAt(index);
      let next = childOf(trie, node, code);
      if (next === NO_CHILD) {
        next = count++;
        if (firstCode[node] === NO_CHILD) {
          firstCode[node] = code;
          firstChild[node] = next;
        } else {
          let more = moreChildren.get(node);
          if (more === undefined) {
            more = new Map();
            moreChildren.set(node, more);
          }
          more.set(code, next);
        }
      }
      node = next;
    }
    output[node] = node;
    const list = ends.get(node);
    if (list === undefined) ends.set(node, [patternIndex]);
    else list.push(patternIndex);
  }
  const fromRoot = new Int32Array(0x10000);
  // Breadth first, so a node's fail target (a shorter prefix) is complete before the node.
  const queue = new Int32Array(count);
  let tail = 0;
  const enqueue = (parent: number, code: number, child: number): void => {
    if (parent === 0) fromRoot[code] = child;
    else {
      let target = fail[parent] as number;
      while (target !== 0 && childOf(trie, target, code) === NO_CHILD) target = fail[target] as number;
      fail[child] = target === 0 ? (fromRoot[code] as number) : childOf(trie, target, code);
    }
    queue[tail++] = child;
  };
  for (let head = -1; head < tail; head++) {
    const node = head === -1 ? 0 : (queue[head] as number);
    if (node !== 0 && output[node] === -1) output[node] = output[fail[node] as number] as number;
    if (firstCode[node] === NO_CHILD) continue;
    enqueue(node, firstCode[node] as number, firstChild[node] as number);
    const more = moreChildren.get(node);
    if (more !== undefined) for (const [code, child] of more) enqueue(node, code, child);
  }
  return { firstCode, firstChild, moreChildren, fromRoot, fail, output, ends };
}
