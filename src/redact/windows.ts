/**
 * Name windows: the lines of a text that mention a secret-looking name.
 *
 * Every name-based rule masks a value only when `classifySecretName` accepts its name, which needs the name's
 * last word to be one of the words below (compounds such as `apikey` end with one too), followed by nothing
 * but non-letters. Each of those rules' matches starts on the line of its name, and whatever a match on
 * another line does (move the scan past its value) stays on that line. So running them on the lines that
 * contain such a word, in order, finds exactly what a scan of the whole text finds, in a fraction of the
 * time: most lines of code, logs and prose mention no secret name. The header rules (`Authorization`,
 * `Cookie`, curl's `-b`) and Azure's `SharedAccessSignature` are line-bound the same way and share the windows.
 */
// Grouped by first letter: the regex engine then tests one branch per position instead of every word.
const NAME_END =
  /p(?:ass(?:word|wd|phrase)?|wd|at)(?![a-z])|s(?:ecrets?|ignature)(?![a-z])|c(?:redentials?|onfirm(?:ation)?|ookie)(?![a-z])|jwt(?![a-z])|bearer(?![a-z])|tokens?(?![a-z])|keys?(?![a-z])|auth(?:orization)?(?![a-z])|-b(?=[ \t])/gi;

/**
 * The `\n`-delimited lines of `text` that contain a secret-name ending, as flattened `[start, end)` pairs
 * (adjacent lines merged). Only `\n` delimits: no rule's match crosses one, except the `name:`/`value:` pair
 * whose name line is the one that counts.
 */
export function nameWindows(text: string): number[] {
  const windows: number[] = [];
  NAME_END.lastIndex = 0;
  for (let match = NAME_END.exec(text); match !== null; match = NAME_END.exec(text)) {
    const start = text.lastIndexOf('\n', match.index) + 1;
    const newline = text.indexOf('\n', match.index);
    const end = newline === -1 ? text.length : newline;
    if (windows.length > 0 && windows[windows.length - 1] === start - 1) windows[windows.length - 1] = end;
    else windows.push(start, end);
    // The rest of the line is already a window.
    NAME_END.lastIndex = end;
  }
  return windows;
}

/** What the scans need of a global regex: a hand-written matcher that stands for one has the same two members. */
export type Matcher = Pick<RegExp, 'lastIndex' | 'exec'>;

/**
 * What a rule does with one match: `start` and `end` are its offsets in the whole text. Returns where the scan
 * resumes (after a value it read), or undefined to resume after the match.
 */
export type OnMatch = (match: RegExpExecArray, start: number, end: number) => number | undefined;

/**
 * Calls `onMatch` for every match of the global `regex`, in order, as a scan of the whole text would, but only
 * on the windows (each line is its own input there, which changes nothing for patterns that never look past a
 * line break). Without windows, scans the whole text.
 */
export function forEachMatch(
  regex: Matcher,
  text: string,
  windows: readonly number[] | undefined,
  onMatch: OnMatch,
): void {
  if (windows === undefined) {
    scan(regex, text, 0, 0, onMatch);
    return;
  }
  let resume = 0;
  for (let index = 0; index < windows.length; index += 2) {
    const start = windows[index] as number;
    const end = windows[index + 1] as number;
    if (resume >= end) continue;
    resume = scan(regex, text.slice(start, end), start, Math.max(resume, start), onMatch);
  }
}

/** Scans `input`, which sits at `offset` in the text, from text offset `from`; returns where it stopped. */
function scan(regex: Matcher, input: string, offset: number, from: number, onMatch: OnMatch): number {
  let resume = from;
  regex.lastIndex = from - offset;
  for (let match = regex.exec(input); match !== null; match = regex.exec(input)) {
    const end = offset + regex.lastIndex;
    resume = Math.max(onMatch(match, offset + match.index, end) ?? end, end);
    if (resume >= offset + input.length) break;
    regex.lastIndex = resume - offset;
  }
  return resume;
}

/**
 * The windows grown by one line on each side, for patterns whose match spans two lines (`name:` then `value:`)
 * and whose scan a match on the line before may move past the start of a window.
 */
export function withNeighbourLines(text: string, windows: readonly number[]): number[] {
  const out: number[] = [];
  for (let index = 0; index < windows.length; index += 2) {
    const first = windows[index] as number;
    const last = windows[index + 1] as number;
    const start = first === 0 ? 0 : text.lastIndexOf('\n', first - 2) + 1;
    const after = last >= text.length ? -1 : text.indexOf('\n', last + 1);
    const end = after === -1 ? text.length : after;
    if (out.length > 0 && (out[out.length - 1] as number) >= start - 1) out[out.length - 1] = end;
    else out.push(start, end);
  }
  return out;
}
