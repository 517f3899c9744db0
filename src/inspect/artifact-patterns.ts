import { isSpace, isWordChar } from '../model/characters.js';

/** Longest artifact string kept: longer paths are ignored, longer commands, URLs and error lines are cut. */
export const ARTIFACT_MAX_LENGTH = 200;

const URL_PATTERN = /\b(?:https?|ftp|file|wss?):\/\/[^\s<>"'`\\|{}^]+/gi;
// Trailing characters a URL in prose is not taken to end with. Trailing runs are cut by `trimTrailing`, not by
// a `[…]+$` regex, which retries a run from each of its characters when the run is not at the end (seconds on an
// 80 KB run of `)` inside one URL).
export const URL_TRAILING = '.,;:!?)]}*_>';
// Characters a path token may contain; anything else ends the token (quotes, brackets, colons of `file:12`).
// Windows paths, `\b[A-Za-z]:\\(?:[\w.\-@+$ ]+\\)*[\w.\-@+$]+` read in steps by `windowsPaths`: as one regex, the
// loop over segments pushed V8's backtracking stack for every segment and threw RangeError on millions of them.
const DRIVE = /\b[A-Za-z]:\\/g;
const PATH_SEGMENT = /[\w.\-@+$ ]+\\/y;
const PATH_CHAR = /[\w.\-@+$]/;
const PATH_LAST = /[\w.\-@+$]+/y;
/**
 * A name's extension: a `.` followed by letters and digits, at least one a letter, up to the end. `[0-9]*`
 * before the first letter, not `[A-Za-z0-9]*`: that one could stop before any letter of the run and retried the
 * rest from each, quadratic in the run (a millisecond for each 1,000-character path candidate of a text).
 */
export const EXTENSION = /\.[0-9]*[A-Za-z][A-Za-z0-9]*$/;

/** Lines of a numbered listing (`   12→code`, `12:code`, `cat -n`, `grep -C` context): file content, not errors. */
export const LISTING_LINE = /^\s*\d+(?:→|\t|:|-(?=\s))/;

// `error` or `exception` ending a word, whatever precedes it: `\b(?:error|exception)\b` where a word starts there
// and `\w(?:Error|Exception)\b` (`TypeError`) where one does not, as the pattern was written, find the same lines
// (a match never crosses a line break), and this form spares the scan the `\w` tried at every character. That
// `\w` form itself replaced `\w+(?:Error|Exception)`, which tried every start inside a long word (seconds on a
// 20 KB base64 run).
const ERROR_WORDS =
  /(?:error|exception)\b|\b(?:errors|traceback|failed|failure|fatal|denied|not found|no such file|panic|segmentation fault|E(?:NOENT|ACCES|PERM|EXIST|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT))\b|ERR!/i;
const ERROR_SCAN = new RegExp(ERROR_WORDS.source, 'gi');
const NOT_AN_ERROR = /\b(?:0|no|zero) (?:errors?|failures?|failed)\b|\berrors?: 0\b/i;
// `{"error": "", "response": …}`: an API envelope whose error field is empty reports success.
const EMPTY_ERROR_FIELD = /\\?["']?error\\?["']?\s*[:=]\s*(?:\\?"\\?"|\\?'\\?'|null|None|false|\[\]|\{\})/gi;
const CODE_LIKE =
  /^(?:raise|except|catch|throw|def|class|function|import|from|export|const|let|var|if|elif|else|return|assert|#|\/\/|\*|\/\*)\b|\b(?:console|logger|log|logging)\.(?:error|exception|warn)\(|\bexcept\s+\w*(?:Error|Exception)|\bnew \w*Error\(|=>|\bcatch\s*\(/;

/** Cuts a string to at most {@link ARTIFACT_MAX_LENGTH} UTF-16 units without splitting a surrogate pair. */
export function capArtifact(text: string): string {
  if (text.length <= ARTIFACT_MAX_LENGTH) return text;
  const cut = text.slice(0, ARTIFACT_MAX_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The URLs in a text, trailing punctuation removed, each cut to the artifact length. */
export function findUrls(text: string): string[] {
  const out: string[] = [];
  forEachUrlMatch(text, (match) => {
    const url = trimTrailing(match, URL_TRAILING);
    if (url.length > url.indexOf('://') + 3) out.push(capArtifact(url));
  });
  return out;
}

/** The text with every URL blanked out, so the path scan does not pick up the paths inside URLs. */
export function withoutUrls(text: string): string {
  // Joined, not concatenated: a concatenation is a rope that the path scan would read through character by
  // character (three times slower, and slower everywhere else it is read too).
  const pieces: string[] = [];
  let copied = 0;
  forEachUrlMatch(text, (match, start) => {
    pieces.push(text.slice(copied, start), ' '.repeat(match.length));
    copied = start + match.length;
  });
  if (pieces.length === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join('');
}

/** Longest scheme {@link URL_PATTERN} knows (`https`): a match starts at most this far before its `://`. */
const LONGEST_SCHEME = 5;

/**
 * Calls `visit` with every match of {@link URL_PATTERN} in `text`, in order, as `matchAll` finds them. Every
 * match holds a `://` just after its scheme, so the regex starts a few characters before the next `://`
 * instead of trying every character of a text (most tool outputs have no URL at all).
 */
function forEachUrlMatch(text: string, visit: (match: string, start: number) => void): void {
  let from = 0;
  for (let colon = text.indexOf('://'); colon !== -1; colon = text.indexOf('://', from)) {
    URL_PATTERN.lastIndex = Math.max(from, colon - LONGEST_SCHEME);
    const match = URL_PATTERN.exec(text);
    if (match === null) return;
    visit(match[0], match.index);
    from = match.index + match[0].length;
  }
}

/**
 * True when a whole token is a plausible file-system path: it has a `/`, a letter, no empty inner segment, and
 * either a prefix that only paths have (`./`, `../`, `~/`), two or more segments when absolute (`/tmp` alone
 * reads like a slash command), an extension on its last segment, three or more segments, or a trailing slash
 * after two. That keeps `and/or`, `application/json`, `origin/main`, dates and fractions out.
 */
export function isPlausiblePath(token: string): boolean {
  const length = token.length;
  if (length < 3 || length > 300) return false;
  // One pass instead of splitting into segments and testing each: this runs for every slash token of every
  // output. Without `//`, segments are what lies between slashes, so their count follows from the slashes.
  let slashes = 0;
  let lastSlash = -1;
  let letter = false;
  let treeMark = false;
  for (let index = 0; index < length; index++) {
    const code = token.charCodeAt(index);
    if (code === 0x2f) {
      if (lastSlash !== -1 && lastSlash === index - 1) return false;
      slashes++;
      lastSlash = index;
    } else if (isAsciiLetter(code)) letter = true;
    else if (isSpace(code)) return false;
    else if (code === 0x5f || code === 0x2d || code === 0x2e || isAsciiDigit(code)) treeMark = true;
  }
  // A letter is a segment of more than `.` and `~`, so `..` and `~/.` are out here.
  if (slashes === 0 || !letter) return false;
  const absolute = token.charCodeAt(0) === 0x2f;
  const trailing = lastSlash === length - 1;
  const segments = slashes + 1 - (absolute ? 1 : 0) - (trailing ? 1 : 0);
  if (isPrefixed(token)) return segments >= 2;
  const hasExtension = !trailing && endsWithExtension(token, lastSlash);
  if (absolute) return segments >= 2 || hasExtension;
  if (hasExtension) return startsLikeName(token.charCodeAt(0));
  if (trailing) return segments >= 2;
  // Three bare words (`merge/version/push`, `Glob/Grep/Read`) are prose unless they read like a source tree.
  return segments >= 3 && (COMMON_ROOTS.has(token.slice(0, token.indexOf('/'))) || treeMark);
}

/** `./`, `../` or `~/` at the start: a prefix only paths have. */
function isPrefixed(token: string): boolean {
  if (token.startsWith('./') || token.startsWith('~/')) return true;
  return token.startsWith('../');
}

/** True when the last segment (after `lastSlash`) matches {@link EXTENSION}: `.`, then letters and digits, one a letter. */
function endsWithExtension(token: string, lastSlash: number): boolean {
  const dot = token.lastIndexOf('.');
  if (dot <= lastSlash || dot === token.length - 1) return false;
  let letter = false;
  for (let index = dot + 1; index < token.length; index++) {
    const code = token.charCodeAt(index);
    if (isAsciiLetter(code)) letter = true;
    else if (!isAsciiDigit(code)) return false;
  }
  return letter;
}

/** `[\w@~$-]`: how a relative path with an extension may start. */
function startsLikeName(code: number): boolean {
  return isWordChar(code) || code === 0x40 || code === 0x7e || code === 0x24 || code === 0x2d;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

const COMMON_ROOTS = new Set(
  'src lib libs test tests spec app apps bin docs doc packages pkg cmd internal scripts config assets public static build dist node_modules vendor include examples tools home usr var etc tmp opt'.split(
    ' ',
  ),
);

/** The path-like tokens of a text (URLs excluded), trailing punctuation removed. */
export function findPaths(text: string): string[] {
  // A backslash is rare where a colon is not: looking for it first spares most texts the scan for `:\`.
  const backslash = text.includes('\\');
  if (!backslash && !text.includes('/')) return [];
  const scanned = withoutUrls(text);
  const out: string[] = [];
  forEachSlashToken(scanned, (token, before) => {
    // A token glued to a preceding `<` (`</div>`), `:` (`http:`), or `*` (globs) is not a path of its own.
    if (before === '<' || before === '*') return;
    const trimmed = trimPathToken(token);
    if (isPlausiblePath(trimmed)) out.push(trimmed);
  });
  if (backslash && scanned.includes(':\\'))
    for (const path of windowsPaths(scanned)) if (path.length <= 300) out.push(path);
  return out;
}

/**
 * The matches of `\b[A-Za-z]:\\(?:[\w.\-@+$ ]+\\)*[\w.\-@+$]+` in a text, in order. Each segment is a run
 * ending at a backslash and the regex took as many as it could, then gave them back one by one until a name
 * character followed: the last segment end a name character follows is where the path's last name starts.
 */
export function windowsPaths(text: string): string[] {
  const out: string[] = [];
  DRIVE.lastIndex = 0;
  for (let drive = DRIVE.exec(text); drive !== null; drive = DRIVE.exec(text)) {
    let segmentEnd = DRIVE.lastIndex;
    let lastStart = PATH_CHAR.test(text[segmentEnd] ?? '') ? segmentEnd : -1;
    PATH_SEGMENT.lastIndex = segmentEnd;
    while (PATH_SEGMENT.test(text)) {
      segmentEnd = PATH_SEGMENT.lastIndex;
      if (PATH_CHAR.test(text[segmentEnd] ?? '')) lastStart = segmentEnd;
    }
    if (lastStart === -1) {
      DRIVE.lastIndex = drive.index + 1;
      continue;
    }
    PATH_LAST.lastIndex = lastStart;
    PATH_LAST.test(text);
    out.push(text.slice(drive.index, PATH_LAST.lastIndex));
    DRIVE.lastIndex = PATH_LAST.lastIndex;
  }
  return out;
}

/**
 * Calls `visit` with every token of `text` (a maximal run of `[\w.\-/~@+$]`) that holds a `/`, in order, with
 * the character before it (`''` at the start). Only such tokens can be paths, so the scan goes from slash to
 * slash and widens each into its run: linear, and no work for the words in between.
 */
export function forEachSlashToken(text: string, visit: (token: string, before: string) => void): void {
  for (let slash = text.indexOf('/'); slash !== -1; ) {
    let start = slash;
    while (start > 0 && isPathCharacter(text.charCodeAt(start - 1))) start--;
    let end = slash + 1;
    while (end < text.length && isPathCharacter(text.charCodeAt(end))) end++;
    visit(text.slice(start, end), start > 0 ? (text[start - 1] as string) : '');
    slash = text.indexOf('/', end);
  }
}

/** The characters of a path token: `[\w.\-/~@+$]`. */
function isPathCharacter(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code === 0x2e ||
    code === 0x2d ||
    code === 0x2f ||
    code === 0x7e ||
    code === 0x40 ||
    code === 0x2b ||
    code === 0x24
  );
}

/** `text` without the run of `characters` it ends with (each one UTF-16 unit), as `replace(/[…]+$/, '')` gives. */
export function trimTrailing(text: string, characters: string): string {
  let end = text.length;
  while (end > 0 && characters.includes(text[end - 1] as string)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Drops trailing punctuation and the `-12-` line suffix of `grep -C` context lines. */
function trimPathToken(token: string): string {
  const trimmed = trimTrailing(token, '.,');
  // The suffix ends in a digit or `-`: most tokens are spared the regex.
  const last = trimmed.charCodeAt(trimmed.length - 1);
  if (last !== 0x2d && !(last >= 0x30 && last <= 0x39)) return trimmed;
  const context = /^(.*\.[A-Za-z0-9]+)-\d+-?$/.exec(trimmed);
  return context?.[1] ?? trimmed;
}

/** True when a trimmed line reports an error (and is not code that merely mentions one). */
export function isErrorLine(line: string): boolean {
  if (line.length < 4 || !ERROR_WORDS.test(line.replace(EMPTY_ERROR_FIELD, ''))) return false;
  if (NOT_AN_ERROR.test(line)) return false;
  return !CODE_LIKE.test(line);
}

/**
 * The error lines of a block of text: every trimmed line that names an error (`error`, `exception`,
 * `traceback`, `failed`, `fatal`, `denied`, `not found`, `…Error`, errno names), each cut to the artifact
 * length, in order, each once. Code and listing lines that mention an error count too: an agent reading a
 * file met them, and a line like `0 failed` still reports how a run went. A very long output keeps its first
 * `head` and last `tail` such lines (all by default).
 */
export function findErrorLines(
  text: string,
  head = Number.POSITIVE_INFINITY,
  tail = Number.POSITIVE_INFINITY,
): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  // Only the lines holding a match are cut out and looked at; no match spans a line break.
  ERROR_SCAN.lastIndex = 0;
  for (let match = ERROR_SCAN.exec(text); match !== null; match = ERROR_SCAN.exec(text)) {
    let start = match.index;
    while (start > 0 && !isLineBreak(text.charCodeAt(start - 1))) start--;
    let end = match.index + match[0].length;
    while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++;
    ERROR_SCAN.lastIndex = end;
    const line = text.slice(start, end).trim();
    if (line.length < 4) continue;
    const capped = capArtifact(line);
    if (seen.has(capped)) continue;
    seen.add(capped);
    found.push(capped);
  }
  if (found.length <= head + tail) return found;
  return [...found.slice(0, head), ...found.slice(found.length - tail)];
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

/**
 * The first non-blank line of a text, trimmed and cut to the artifact length, reading only what decides it: not
 * on to the end of a line of megabytes (a tool printing JSON on one line). A line with a character past the cut
 * that is not white space is longer than the cut when trimmed; only a run of white space there is read on to the
 * line's end.
 */
export function firstLine(text: string): string {
  let start = 0;
  while (start < text.length) {
    let at = start;
    while (at < text.length && !isLineBreak(text.charCodeAt(at)) && isSpace(text.charCodeAt(at))) at++;
    if (at < text.length && !isLineBreak(text.charCodeAt(at))) return lineFrom(text, at);
    if (at === text.length) return '';
    start = text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10 ? at + 2 : at + 1;
  }
  return '';
}

/** The line whose first character that is not white space is at `from`, trimmed and cut. */
function lineFrom(text: string, from: number): string {
  const cut = Math.min(text.length, from + ARTIFACT_MAX_LENGTH);
  let at = breakBefore(text, from, cut);
  if (at === cut) {
    while (at < text.length && !isLineBreak(text.charCodeAt(at)) && isSpace(text.charCodeAt(at))) at++;
    if (at < text.length && !isLineBreak(text.charCodeAt(at))) return capArtifact(text.slice(from, cut + 1));
  }
  return capArtifact(text.slice(from, at).trimEnd());
}

/** The first `\n` or `\r` in `[from, to)`, or `to`: searched in that window only, never on into the text. */
function breakBefore(text: string, from: number, to: number): number {
  const window = text.slice(from, to);
  const feed = window.indexOf('\n');
  const ret = window.indexOf('\r');
  const first = feed === -1 ? ret : ret === -1 ? feed : Math.min(feed, ret);
  return first === -1 ? to : from + first;
}
