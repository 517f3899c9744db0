import { positionAbove } from '../model/arrays.js';

/**
 * Where a value behind two or more backslashes closes. Read by a scan, such a value went on to the end of its
 * line whenever no quote of its own depth followed, and a line holding values of many depths (3, 5, 7…
 * backslashes) was read to its end once per value: about n^1.5 in the length of the line (800 KB: 5 s). The
 * quotes of a text are indexed once instead, by the length of the backslash run before them.
 */
interface DeepQuoteIndex {
  readonly text: string;
  /** Positions of the quotes behind exactly as many backslashes as the key, in order. */
  readonly quotes: Map<number, number[]>;
  /** Positions of the line breaks no backslash continues, in order. */
  readonly breaks: number[];
}

// The last text indexed: every rule reads the values of the same text in turn.
let lastIndex: DeepQuoteIndex | undefined;

function indexOf(text: string): DeepQuoteIndex {
  if (lastIndex !== undefined && lastIndex.text === text) return lastIndex;
  const quotes = new Map<number, number[]>();
  const breaks: number[] = [];
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22 && run >= 2) {
      const positions = quotes.get(run);
      if (positions === undefined) quotes.set(run, [index]);
      else positions.push(index);
    } else if ((code === 0x0a || code === 0x0d) && run === 0) breaks.push(index);
    run = code === 0x5c ? run + 1 : 0;
  }
  lastIndex = { text, quotes, breaks };
  return lastIndex;
}

/** The first element of the sorted `positions` at or after `from`, or undefined (positions: integers). */
function firstFrom(positions: readonly number[], from: number): number | undefined {
  return positions[positionAbove(positions, from - 1)];
}

/**
 * The position of the quote that closes a value starting at `start`, right after a quote behind `escapes`
 * (two or more) backslashes: the first quote behind exactly as many, on the same line (a line break behind a
 * backslash continues it). Undefined when the line or the text ends first.
 */
export function deepQuoteClose(text: string, start: number, escapes: number): number | undefined {
  const index = indexOf(text);
  const positions = index.quotes.get(escapes);
  const close = positions === undefined ? undefined : firstFrom(positions, start);
  if (close === undefined) return undefined;
  const lineBreak = firstFrom(index.breaks, start);
  return lineBreak !== undefined && lineBreak < close ? undefined : close;
}
