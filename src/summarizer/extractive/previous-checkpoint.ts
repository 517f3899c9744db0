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
}

const CLAUDE_CODE_INTRO = /^This session is being continued from a previous conversation[^\n]*\n*/;

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
  return {
    sections: lines,
    ...(current === undefined ? {} : { currentRequest: current }),
    ...(original === undefined ? {} : { originalRequest: original }),
    ...(foreign.trim() === '' ? {} : { foreign: foreign.trim() }),
  };
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
