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
const USER_MESSAGES_HEADING = /^\s*(?:\d+\.\s*)?\**All (?:user|the user'?s?) messages\**:?\**\s*$/im;
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
  const heading = USER_MESSAGES_HEADING.exec(text);
  if (heading === null) return [];
  const out: string[] = [];
  for (const line of text.slice(heading.index + heading[0].length).split('\n')) {
    const quoted = QUOTED_BULLET.exec(line);
    if (quoted?.[1] !== undefined) out.push(quoted[1].replace(/\\"/g, '"'));
    else if (NUMBERED_HEADING.test(line) || /^\s*<\/summary>/.test(line)) break;
  }
  return out;
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
