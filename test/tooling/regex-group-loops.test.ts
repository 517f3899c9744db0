import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findRegexSites } from '../../scripts/regex-audit/extract.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// V8 pushes backtracking state for every iteration of a repeated group whose body is more than one character
// (class): past a few million iterations in one match it throws `RangeError: Maximum call stack size exceeded`
// (a 12 MB command lost a whole `condense redact` file). The checker does not see this, so a regex that repeats
// such a group without bound is listed here with why its input is short, or rewritten (one class, a scan).
const BOUNDED: Readonly<Record<string, string>> = {
  'src/summarizer/extractive/failures.ts ^(?:cd\\s+\\S+\\s*&&\\s*)+':
    "subject() reads an action's `command`, its first line cut to 200 characters (capArtifact).",
  'src/transforms/text-facts.ts \\B(?=(\\d{3})+(?!\\d))':
    'formatCount groups the digits of a number: at most 309 of them (Number.MAX_VALUE).',
};

/** The body of every group of `source` repeated by `*`, `+` or `{n,}`. */
function repeatedGroups(source: string): string[] {
  const bodies: string[] = [];
  const opens: number[] = [];
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') index++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') opens.push(index);
    else if (char === ')') {
      const open = opens.pop() ?? 0;
      if (/^(?:[*+]|\{\d+,\})/.test(source.slice(index + 1))) bodies.push(source.slice(open + 1, index));
    }
  }
  return bodies;
}

/** True when a group's body is one character, escape or class: V8 runs such a loop without its stack. */
function isOneCharacter(body: string): boolean {
  return /^(?:\?:)?(?:[^\\[()|*+?{]|\\.|\[(?:[^\\\]]|\\.)*\])$/.test(body);
}

describe('regexes that repeat a group', () => {
  it('reads the repeated groups of a pattern', () => {
    expect(repeatedGroups('a(?:b|c)*d([x])+(e){2,}(f){2}[(g)]+')).toEqual(['?:b|c', '[x]', 'e']);
    expect(isOneCharacter('?:[a-z]')).toBe(true);
    expect(isOneCharacter('\\s')).toBe(true);
    expect(isOneCharacter('?:\\.[A-Z]')).toBe(false);
    // One the check would have caught: the htpasswd pattern that threw on 4 million flags.
    const htpasswd = String.raw`(?<![\w-])htpasswd((?:[ \t]+-[A-Za-z]{1,10})+)[ \t]+`;
    expect(repeatedGroups(htpasswd).filter((body) => !isOneCharacter(body))).toEqual([
      String.raw`?:[ \t]+-[A-Za-z]{1,10}`,
    ]);
  });

  it('none in src/ repeats a group of more than one character without a reason its input is short', () => {
    const found = findRegexSites(ROOT)
      .filter((site) => site.kind !== 'dynamic')
      .filter((site) => repeatedGroups(site.source).some((body) => !isOneCharacter(body)))
      .map((site) => `${site.file} ${site.source}`);
    const unexplained = found.filter((key) => BOUNDED[key] === undefined);
    expect(unexplained, 'rewrite it (one character class, a scan) or add it to BOUNDED with why').toEqual([]);
    expect(Object.keys(BOUNDED).filter((key) => !found.includes(key))).toEqual([]);
  });
});
