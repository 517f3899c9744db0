/*
 * Reasoning blocks a model wrote inline, found by a scan. The regex that says the same,
 * `/<(think|thinking|reasoning|thought|REASONING_SCRATCHPAD)(?:\s[^>]*)?>[\s\S]*?<\/\1>/gi`, searches to the end
 * of the text again for every block that is never closed and every opening tag whose `>` never comes, so a
 * long answer or turn of them took time quadratic in its length.
 */

/** The tag names, lower case. Only ASCII letters fold: `i` without `u` never maps other characters to ASCII. */
const NAMES = ['think', 'thinking', 'reasoning', 'thought', 'reasoning_scratchpad'];
const WHITESPACE = /\s/;

/** `text` without its closed reasoning blocks: what `text.replace(` the regex above `, '')` returns. */
export function removeReasoningBlocks(text: string): string {
  if (!text.includes('<')) return text;
  // Same length as `text`: only A-Z change.
  const lower = text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  const closes = NAMES.map((name) => `</${name}>`);
  // Where each name's next closing tag is at or after the last position asked (-2: not looked up, -1: none).
  const nextClose = NAMES.map(() => -2);
  let nextBracket = -2;
  let out = '';
  let kept = 0;
  for (let start = lower.indexOf('<'); start !== -1; ) {
    const match = blockAt(start);
    if (match === undefined) {
      start = lower.indexOf('<', start + 1);
      continue;
    }
    out += text.slice(kept, start);
    kept = match;
    start = lower.indexOf('<', match);
  }
  return kept === 0 ? text : out + text.slice(kept);

  /** Where the block that opens at `start` ends, or undefined when none does. */
  function blockAt(start: number): number | undefined {
    // At most one name can open here: a name that starts another is followed by `>` or a space, the other not.
    for (let index = 0; index < NAMES.length; index++) {
      const name = NAMES[index] as string;
      if (!lower.startsWith(name, start + 1)) continue;
      const after = start + 1 + name.length;
      if (lower[after] === '>') return closeAfter(index, after + 1);
      if (after < lower.length && WHITESPACE.test(lower[after] as string)) {
        // The first `>` from here; an earlier answer stays right (only name letters lie between the two).
        if (nextBracket !== -1 && nextBracket < after) nextBracket = lower.indexOf('>', after);
        return nextBracket === -1 ? undefined : closeAfter(index, nextBracket + 1);
      }
    }
    return undefined;
  }

  function closeAfter(index: number, from: number): number | undefined {
    let at = nextClose[index] as number;
    if (at === -1) return undefined;
    if (at < from) {
      at = lower.indexOf(closes[index] as string, from);
      nextClose[index] = at;
      if (at === -1) return undefined;
    }
    return at + (closes[index] as string).length;
  }
}
