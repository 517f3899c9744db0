import { isLineTerminator, isSpace } from '../../model/characters.js';
import { parseCheckpoint } from '../../transforms/checkpoint-text.js';
import { isEmptySection, parseSections, type SectionKey } from '../prompts/checkpoint-template.js';

/** A previous checkpoint, read for updating: its sections as lines, and any text in no known section. */
export interface PreviousCheckpoint {
  readonly sections: ReadonlyMap<SectionKey, readonly string[]>;
  /** Request sections keep their text whole (a request spans lines). */
  readonly currentRequest?: string;
  readonly originalRequest?: string;
  /** Text of a summary in no known template (Claude Code's, free prose), carried forward as it is. */
  readonly foreign?: string;
  /**
   * The person's messages a foreign summary quotes (Claude Code's "All User Messages" list), verbatim, oldest
   * first: where the original request is found once the turns that held it are gone.
   */
  readonly quotedPrompts?: readonly string[];
}

const CLAUDE_CODE_INTRO =
  /^(?:This session is being continued from a previous conversation[^\n]*\n*)?(?:The summary below covers the earlier portion of the conversation\.?\s*)?/;
// Claude Code's summary lists every message the person wrote under this heading, one quoted bullet each.
const USER_MESSAGES_TITLE = /All (?:user|the user'?s?) messages/gi;
const QUOTED_BULLET = /^\s*[-*]\s+"(.*)"\s*$/;
const NUMBERED_HEADING = /^\s*\d+\.\s+\S/;

/** Reads the body (or full text) of a previous checkpoint of any author. */
export function readPreviousCheckpoint(text: string): PreviousCheckpoint {
  const parsed = parseCheckpoint(text);
  const body = (parsed?.body ?? text).replace(CLAUDE_CODE_INTRO, '').trim();
  const { sections, preamble } = parseSections(body);
  const lines = new Map<SectionKey, string[]>();
  for (const [key, value] of sections) {
    if (key === 'currentRequest' || key === 'originalRequest' || isEmptySection(value)) continue;
    lines.set(
      key,
      value
        .split('\n')
        .map((line) => line.trimEnd())
        .filter((line) => line.trim() !== '' && !isEmptySection(line)),
    );
  }
  const request = (key: SectionKey): string | undefined => {
    const value = sections.get(key);
    if (value === undefined || isEmptySection(value)) return undefined;
    const trimmed = value.trim();
    return /^same as the current request\.?$/i.test(trimmed) ? undefined : trimmed;
  };
  const current = request('currentRequest');
  const original = request('originalRequest');
  const foreign = sections.size === 0 ? body : preamble;
  const quoted = quotedPrompts(foreign);
  return {
    sections: lines,
    ...(current === undefined ? {} : { currentRequest: current }),
    ...(original === undefined ? {} : { originalRequest: original }),
    ...(foreign.trim() === '' ? {} : { foreign: foreign.trim() }),
    ...(quoted.length === 0 ? {} : { quotedPrompts: quoted }),
  };
}

/** The quoted bullets under an "All User Messages" heading of a foreign summary. */
function quotedPrompts(text: string): string[] {
  const heading = userMessagesHeading(text);
  if (heading === undefined) return [];
  const out: string[] = [];
  for (const line of text.slice(heading.end).split('\n')) {
    const quoted = QUOTED_BULLET.exec(line);
    if (quoted?.[1] !== undefined) out.push(quoted[1].replace(/\\"/g, '"'));
    else if (NUMBERED_HEADING.test(line) || /^\s*<\/summary>/.test(line)) break;
  }
  return out;
}

/**
 * Where the first "All User Messages" heading line is, exactly as
 * `/^\s*(?:\d+\.\s*)?\**All (?:user|the user'?s?) messages\**:?\**\s*$/im` matches it (its `\s` spans line breaks
 * both sides), in linear time: that regex took cubic time on whitespace lines before a title followed by stars
 * (6 KB: 1 s, 13 KB: 81 s). Each title found is extended back to its earliest line start and on to its line end.
 */
export function userMessagesHeading(text: string): { index: number; end: number } | undefined {
  for (const title of text.matchAll(USER_MESSAGES_TITLE)) {
    const end = headingEnd(text, title.index + title[0].length);
    if (end === undefined) continue;
    const index = headingStart(text, title.index);
    if (index !== undefined) return { index, end };
  }
  return undefined;
}

/** The earliest line start from which `^\s*(?:\d+\.\s*)?\**` reaches `title`. */
function headingStart(text: string, title: number): number | undefined {
  let at = title;
  while (at > 0 && text.charCodeAt(at - 1) === 0x2a) at--;
  const spaceStart = skipSpaceBack(text, at);
  let digits = spaceStart - 1;
  if (text.charCodeAt(digits) === 0x2e) {
    while (digits > 0 && isDigit(text.charCodeAt(digits - 1))) digits--;
    if (digits < spaceStart - 1) {
      const numbered = firstLineStart(text, skipSpaceBack(text, digits), digits);
      if (numbered !== undefined) return numbered;
    }
  }
  return firstLineStart(text, spaceStart, at);
}

/** The end of `\**:?\**\s*$` (multiline) from `from`: `\s*` takes the line breaks up to the last it can end before. */
function headingEnd(text: string, from: number): number | undefined {
  let at = from;
  while (text.charCodeAt(at) === 0x2a) at++;
  if (text.charCodeAt(at) === 0x3a) at++;
  while (text.charCodeAt(at) === 0x2a) at++;
  let end: number | undefined;
  for (; at < text.length && isSpace(text.charCodeAt(at)); at++) {
    if (isLineTerminator(text.charCodeAt(at))) end = at;
  }
  return at === text.length ? at : end;
}

/** Where the run of white space that ends at `end` starts. */
function skipSpaceBack(text: string, end: number): number {
  let at = end;
  while (at > 0 && isSpace(text.charCodeAt(at - 1))) at--;
  return at;
}

/** The first line start in `[from, to]`, where `from` starts a run of white space that reaches `to`. */
function firstLineStart(text: string, from: number, to: number): number | undefined {
  if (from === 0) return 0;
  for (let at = from; at < to; at++) if (isLineTerminator(text.charCodeAt(at))) return at + 1;
  return undefined;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** A bullet line without its bullet. */
export function unbullet(line: string): string {
  return line.replace(/^\s*[-*]\s+/, '').trim();
}

/** The number a numbered line starts with (`12.` or a condensed range `3–9.`: the range's end). */
export function lineNumber(line: string): number | undefined {
  const match = /^\s*(\d+)(?:\s*[–-]\s*(\d+))?[.)]/.exec(line);
  return match === null ? undefined : Number(match[2] ?? match[1]);
}
