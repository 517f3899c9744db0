import { ARTIFACT_MAX_LENGTH, capArtifact } from '../../inspect/artifact-patterns.js';
import { isSpace } from '../../model/characters.js';

/**
 * `firstLine(text)` of artifact-patterns (the first non-blank line, trimmed, cut to the artifact length) reading
 * only what decides it: that one finds the end of the line before cutting it, the whole text when a tool printed
 * megabytes of JSON on one line. A line with a character past the cut that is not white space is longer than the
 * cut when trimmed; only a run of white space there is read on to the line's end.
 */
export function firstLineOf(text: string): string {
  let start = 0;
  while (start < text.length) {
    let at = start;
    while (at < text.length && !isBreak(text.charCodeAt(at)) && isSpace(text.charCodeAt(at))) at++;
    if (at < text.length && !isBreak(text.charCodeAt(at))) return lineFrom(text, at);
    if (at === text.length) return '';
    start = text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10 ? at + 2 : at + 1;
  }
  return '';
}

function isBreak(code: number): boolean {
  return code === 10 || code === 13;
}

/** The line whose first character that is not white space is at `from`, trimmed and cut. */
function lineFrom(text: string, from: number): string {
  const cut = Math.min(text.length, from + ARTIFACT_MAX_LENGTH);
  let at = breakBefore(text, from, cut);
  if (at === cut) {
    while (at < text.length && !isBreak(text.charCodeAt(at)) && isSpace(text.charCodeAt(at))) at++;
    if (at < text.length && !isBreak(text.charCodeAt(at))) return capArtifact(text.slice(from, cut + 1));
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
