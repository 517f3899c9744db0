import { isSpace } from '../../model/characters.js';

/** Slots of the filter that keeps most pieces from being cut out and hashed (a power of two). */
const FILTER_SLOTS = 4096;

/**
 * The artifacts a reader can already see whole in a checkpoint line, found without building every word of it:
 * fitting looks each kept line up once, and splitting lines into word arrays was about 6 % of a compaction's
 * allocations. A piece is cut out of the text and looked up only when some wanted artifact has its length and
 * its first and last characters (a filter of {@link FILTER_SLOTS} slots: a rare false match costs one lookup).
 */
export class VisiblePieces {
  private readonly wanted: ReadonlySet<string>;
  private readonly filter = new Uint8Array(FILTER_SLOTS);

  /** `wanted`: the artifacts still to place; nothing else is ever looked up. */
  constructor(wanted: ReadonlySet<string>) {
    this.wanted = wanted;
    for (const piece of wanted) this.filter[slotOf(piece, 0, piece.length)] = 1;
  }

  /**
   * Adds to `into` every wanted piece of `text`: each word (split at white space, quotes, brackets, commas and
   * semicolons), each word without its trailing `.:!?`, each backtick span, and each line trimmed, with and
   * without a leading `-`, `*` or `1.` bullet.
   */
  collect(text: string, into: Set<string>): void {
    if (this.wanted.size === 0) return;
    this.words(text, into);
    this.backtickSpans(text, into);
    this.lines(text, into);
  }

  /** What `` /`([^`\n]+)`/g `` captures, through the filter: a span is cut out only when it could be wanted. */
  private backtickSpans(text: string, into: Set<string>): void {
    let open = text.indexOf('`');
    while (open !== -1) {
      let close = open + 1;
      while (close < text.length && text.charCodeAt(close) !== 0x60 && text.charCodeAt(close) !== 0x0a)
        close++;
      if (close === text.length) return;
      if (text.charCodeAt(close) === 0x0a) open = text.indexOf('`', close);
      else if (close === open + 1) open = close;
      else {
        this.keepSlice(text, open + 1, close, into);
        open = text.indexOf('`', close + 1);
      }
    }
  }

  private keep(piece: string, into: Set<string>): void {
    if (this.wanted.has(piece)) into.add(piece);
  }

  private keepSlice(text: string, start: number, end: number, into: Set<string>): void {
    if (this.filter[slotOf(text, start, end)] === 1) this.keep(text.slice(start, end), into);
  }

  private words(text: string, into: Set<string>): void {
    const length = text.length;
    let index = 0;
    while (index < length) {
      while (index < length && isWordBreak(text.charCodeAt(index))) index++;
      if (index === length) return;
      const start = index;
      while (index < length && !isWordBreak(text.charCodeAt(index))) index++;
      this.keepSlice(text, start, index, into);
      let bare = index;
      while (bare > start && isClosingPunctuation(text.charCodeAt(bare - 1))) bare--;
      if (bare < index) this.keepSlice(text, start, bare, into);
    }
  }

  private lines(text: string, into: Set<string>): void {
    const length = text.length;
    let lineStart = 0;
    while (lineStart <= length) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd === -1) lineEnd = length;
      let start = lineStart;
      let end = lineEnd;
      while (start < end && isSpace(text.charCodeAt(start))) start++;
      while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
      this.keepSlice(text, start, end, into);
      const body = afterBullet(text, start, end);
      if (body !== start) this.keepSlice(text, body, end, into);
      lineStart = lineEnd + 1;
    }
  }
}

/** The filter slot of `text.slice(start, end)`, from its length and its first and last characters. */
function slotOf(text: string, start: number, end: number): number {
  if (end <= start) return 0;
  const mixed =
    Math.imul(end - start, 0x9e3779b1) ^ Math.imul(text.charCodeAt(start), 31) ^ text.charCodeAt(end - 1);
  return (mixed ^ (mixed >>> 15)) & (FILTER_SLOTS - 1);
}

/** Where a trimmed line's text starts after a `-`, `*` or `12.` bullet and the space after it; `start` if none. */
function afterBullet(text: string, start: number, end: number): number {
  let marker = start;
  const first = text.charCodeAt(start);
  if (start < end && (first === 0x2d || first === 0x2a)) marker = start + 1;
  else {
    while (marker < end && isDigit(text.charCodeAt(marker))) marker++;
    if (marker === start || marker >= end || text.charCodeAt(marker) !== 0x2e) return start;
    marker++;
  }
  let body = marker;
  while (body < end && isSpace(text.charCodeAt(body))) body++;
  return body === marker ? start : body;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isClosingPunctuation(code: number): boolean {
  return code === 0x2e || code === 0x3a || code === 0x21 || code === 0x3f;
}

/** The ASCII separators of words, by code: one array read per character of prose, code and paths. */
const ASCII_WORD_BREAK = (() => {
  const table = new Uint8Array(128);
  for (const separator of '`\'"()[],;') table[separator.charCodeAt(0)] = 1;
  for (let code = 0; code < 128; code++) if (isSpace(code)) table[code] = 1;
  return table;
})();

/** The separators of words: white space (as `\s` and `trim` define it) and `` `'"()[],; ``. */
function isWordBreak(code: number): boolean {
  return code < 128 ? ASCII_WORD_BREAK[code] === 1 : isSpace(code);
}
