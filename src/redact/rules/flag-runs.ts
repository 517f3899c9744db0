import type { Matcher } from '../windows.js';

/** One shell flag and its blanks (`-gx `), as the assignment patterns repeat it after `export`, `set`… */
const FLAG = /-[A-Za-z]+[ \t]+/y;

/** The parts of a pattern `head(?:-[A-Za-z]+[ \t]+)*tail` that {@link flagRunMatcher} matches in turn. */
export interface FlagRunPattern {
  /** The whole pattern without the flag run: it matches wherever the run would be empty (global). */
  readonly plain: RegExp;
  /** The head, then a look-ahead for `-`: where a flag run may start (global). */
  readonly head: RegExp;
  /** What follows the run, with the pattern's groups (sticky). */
  readonly tail: RegExp;
  /** Fewest flags the pattern takes (`+`: 1). */
  readonly minFlags: number;
}

/**
 * A matcher for `head(?:-[A-Za-z]+[ \t]+)*tail` that does not repeat a group in a regex: V8 pushes backtracking
 * state for every iteration of one, and threw RangeError on a run of millions of flags. It relies on what the
 * assignment patterns guarantee: the head matches in one way only at a position, a flag is taken whole (after
 * it comes `-` or what the tail starts with, never a blank or a letter), and the tail cannot start with `-`, so
 * only after the whole run can it match. Then a position where the head is followed by `-` matches as the run
 * and the tail do, and any other position as `plain` does.
 */
export function flagRunMatcher(pattern: FlagRunPattern): Matcher {
  const { tail, minFlags } = pattern;
  const plain = searcher(pattern.plain);
  const head = searcher(pattern.head);
  return {
    lastIndex: 0,
    exec(input: string): RegExpExecArray | null {
      const first = plain(input, this.lastIndex);
      for (let start = head(input, this.lastIndex); start !== null; ) {
        if (first !== null && first.match.index < start.match.index) break;
        let end = start.end;
        let flags = 0;
        FLAG.lastIndex = end;
        while (FLAG.test(input)) {
          end = FLAG.lastIndex;
          flags++;
        }
        tail.lastIndex = end;
        const rest = flags >= minFlags ? tail.exec(input) : null;
        if (rest !== null) {
          this.lastIndex = tail.lastIndex;
          rest[0] = input.slice(start.match.index, this.lastIndex);
          rest.index = start.match.index;
          return rest;
        }
        start = head(input, start.match.index + 1);
      }
      this.lastIndex = first === null ? 0 : first.end;
      return first === null ? null : first.match;
    },
  };
}

/**
 * The first match of a global regex at or after a position, remembered: a scan asks again from later positions,
 * and searching anew each time would cross the same text again and again (quadratic when the next match is far).
 * A match at a position does not depend on where the search began, so the one found stays the answer for any
 * position up to its own.
 */
function searcher(
  regex: RegExp,
): (input: string, from: number) => { match: RegExpExecArray; end: number } | null {
  let searched: string | undefined;
  let searchedFrom = 0;
  let found: { match: RegExpExecArray; end: number } | null = null;
  return (input, from) => {
    if (input !== searched || from < searchedFrom || (found !== null && found.match.index < from)) {
      searched = input;
      searchedFrom = from;
      regex.lastIndex = from;
      const match = regex.exec(input);
      found = match === null ? null : { match, end: regex.lastIndex };
    }
    return found;
  };
}
