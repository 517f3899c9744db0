import { type CandidateSink, pushCandidate } from '../candidate.js';
import { classifySecretName } from '../names.js';
import type { RedactRule, RuleScope } from '../rule.js';
import { readValue } from '../values.js';
import { forEachMatch, withNeighbourLines } from '../windows.js';
import { flagRunMatcher } from './flag-runs.js';
import { lineEnd, pushNamedValue, restOfLineIsEmpty } from './named-value.js';

// `FOO_API_KEY=…` anywhere (inline `TOKEN=x cmd`, `.env`, compose lists, logs). The look-behind stops a name
// from starting inside a word, so every run of capitals is tried once.
const UPPER_ASSIGNMENT = /(?<![\w.$-])([A-Z][A-Z0-9_]{0,80})[ \t]*[?:+]?=(?![=>~])[ \t]*/g;

/**
 * Where a line starts: after a line break, or at the start of a JSON string value held in the text
 * (`{"stdout": "ENV SECRET_KEY …"}`), whose own lines its escaped line breaks start.
 */
const LINE_START = String.raw`(?:^|(?<=[:[][ \t]*\\*"))`;

/** A Markdown list or quote marker before a line's content (`- ENV X y` in a checkpoint, `> export X=y`). */
const MARKER = String.raw`(?:[-*+>][ \t]+)?`;

// At the start of a line, any naming style, `=` or `:` (YAML): shell `export`, Dockerfile `ENV`/`ARG`,
// `declare -x`, JS `const`, YAML list items `- `, PowerShell `$env:`. As one regex,
// `${LINE_START}[ \t]*${MARKER}(?:KEYWORD[ \t]+(?:-[A-Za-z]+[ \t]+)*|-[ \t]+|\$env:)?${ASSIGNED}`; its flag run
// (`declare -x -r`) is read by `flagRunMatcher`, not repeated in the regex.
const KEYWORD = '(?:export|ENV|ARG|set|setx|declare|typeset|readonly|local|let|const|var)';
const ASSIGNED = String.raw`["']?([A-Za-z_@$][\w.@$-]{0,99})["']?[ \t]*(=|:=|\?=|\+=|:(?![:=/]))[ \t]*`;
export const LINE_ASSIGNMENT = flagRunMatcher({
  plain: new RegExp(
    String.raw`${LINE_START}[ \t]*${MARKER}(?:${KEYWORD}[ \t]+|-[ \t]+|\$env:)?${ASSIGNED}`,
    'gm',
  ),
  head: new RegExp(String.raw`${LINE_START}[ \t]*${MARKER}${KEYWORD}[ \t]+(?=-)`, 'gm'),
  tail: new RegExp(ASSIGNED, 'y'),
  minFlags: 0,
});

// Dockerfile legacy `ENV NAME value` and fish `set -gx NAME value`: the value follows a space. As one regex,
// `${LINE_START}[ \t]*${MARKER}(?:ENV[ \t]+|set[ \t]+(?:-[A-Za-z]+[ \t]+)+)${SPACED}`.
const SPACED = String.raw`([A-Za-z_]\w{0,99})[ \t]+(?=[^\s=])`;
export const SPACE_ASSIGNMENT = flagRunMatcher({
  plain: new RegExp(String.raw`${LINE_START}[ \t]*${MARKER}ENV[ \t]+${SPACED}`, 'gm'),
  head: new RegExp(String.raw`${LINE_START}[ \t]*${MARKER}set[ \t]+(?=-)`, 'gm'),
  tail: new RegExp(SPACED, 'y'),
  minFlags: 1,
});

// Kubernetes / ECS env entries: `- name: DB_PASSWORD` then `value: …`, or `{"name": "X", "value": "…"}`.
const NAME_VALUE_PAIR =
  /(?<![\w\\-])(?:\\*["'])?name(?:\\*["'])?[ \t]*:[ \t]*(?:\\*["'])?([A-Za-z_][\w.-]{0,99})(?:\\*["'])?[ \t]*(?:,[ \t]*|\\*\r?\n[ \t]*)(?:\\*["'])?value(?:\\*["'])?[ \t]*:[ \t]*/g;

const BLOCK_SCALAR = /^[|>][-+0-9]*$/;

type Windows = readonly number[] | undefined;

function findUpperAssignments(text: string, out: CandidateSink, windows: Windows): void {
  forEachMatch(UPPER_ASSIGNMENT, text, windows, (match, _start, end) => {
    const name = match[1] ?? '';
    if (classifySecretName(name) === undefined) return undefined;
    const value = readValue(text, end, true);
    if (value === undefined) return undefined;
    pushNamedValue(out, text, name, value, 'secret-assignment');
    return value.next;
  });
}

function findLineAssignments(text: string, out: CandidateSink, windows: Windows): void {
  forEachMatch(LINE_ASSIGNMENT, text, windows, (match, start, pos) => {
    const name = match[1] ?? '';
    const nameClass = classifySecretName(name);
    if (nameClass === undefined) return undefined;
    if (match[2] === ':' && BLOCK_SCALAR.test(blockHeader(text, pos)))
      return maskBlockScalar(text, start, lineEnd(text, pos), out);
    const value = readValue(text, pos, true);
    if (value === undefined) return undefined;
    if (match[2] !== ':' || restOfLineIsEmpty(text, value.next))
      pushNamedValue(out, text, name, value, 'secret-assignment');
    return value.next;
  });
}

/** The YAML block-scalar header (`|`, `>-`, `|2`…) at `pos`, or an empty string. */
function blockHeader(text: string, pos: number): string {
  const first = text[pos];
  if (first !== '|' && first !== '>') return '';
  let end = pos + 1;
  while (end < text.length && end < pos + 4 && /[-+0-9]/.test(text[end] ?? '')) end++;
  return restOfLineIsEmpty(text, end) ? text.slice(pos, end) : '';
}

/** Masks the lines of a YAML block scalar (`key: |`) indented deeper than its key; returns where it stopped. */
function maskBlockScalar(text: string, keyLineStart: number, headerEnd: number, out: CandidateSink): number {
  let indent = 0;
  while (text[keyLineStart + indent] === ' ' || text[keyLineStart + indent] === '\t') indent++;
  let first = -1;
  let last = -1;
  let cursor = headerEnd;
  while (cursor < text.length) {
    const lineStart = text[cursor] === '\r' && text[cursor + 1] === '\n' ? cursor + 2 : cursor + 1;
    const end = lineEnd(text, lineStart);
    let lineIndent = 0;
    while (text[lineStart + lineIndent] === ' ' || text[lineStart + lineIndent] === '\t') lineIndent++;
    const blank = lineStart + lineIndent === end;
    if (!blank && lineIndent <= indent) break;
    if (!blank) {
      if (first === -1) first = lineStart + lineIndent;
      last = end;
    }
    cursor = end;
  }
  if (first !== -1) pushCandidate(out, first, last, 'secret-assignment', 'full');
  return Math.max(last, headerEnd);
}

function findSpaceAssignments(text: string, out: CandidateSink, windows: Windows): void {
  forEachMatch(SPACE_ASSIGNMENT, text, windows, (match, _start, pos) => {
    const quoted = readValue(text, pos, false);
    let end = quoted?.end ?? valueLineEnd(text, pos);
    while (quoted === undefined && end > pos && /\s/.test(text[end - 1] ?? '')) end--;
    const value = quoted ?? { start: pos, end, quoted: false, next: end };
    pushNamedValue(out, text, match[1] ?? '', value, 'secret-assignment');
    return Math.max(value.next, pos);
  });
}

/** The end of a value that runs to the end of its line: before a quote or a backslash (JSON text's own). */
function valueLineEnd(text: string, pos: number): number {
  let index = pos;
  while (index < text.length && !/[\n\r"\\]/.test(text[index] as string)) index++;
  return index;
}

function findNameValuePairs(text: string, out: CandidateSink, windows: Windows): void {
  const wider = windows === undefined ? undefined : withNeighbourLines(text, windows);
  forEachMatch(NAME_VALUE_PAIR, text, wider, (match, _start, end) => {
    const value = readValue(text, end, true);
    if (value === undefined) return undefined;
    pushNamedValue(out, text, match[1] ?? '', value, 'secret-assignment');
    return value.next;
  });
}

/**
 * Assignments whose name announces a secret: `*_API_KEY=`, `*_TOKEN=`, `PASSWORD=` in shell, `.env`,
 * Dockerfile and YAML forms (including YAML block scalars and Kubernetes `name`/`value` env entries).
 */
function findAssignments(text: string, out: CandidateSink, scope?: RuleScope): void {
  const windows = scope?.windows;
  if (text.includes('=')) findUpperAssignments(text, out, windows);
  findLineAssignments(text, out, windows);
  if (text.includes('ENV') || text.includes('set ')) findSpaceAssignments(text, out, windows);
  if (text.includes('name') && text.includes('value')) findNameValuePairs(text, out, windows);
}

/** Environment and config assignments of secret-looking names. */
export const assignmentRule: RedactRule = {
  name: 'secret-assignment',
  windowed: true,
  noisy: true,
  find: findAssignments,
};

const NETRC_INLINE = /(?<![\w-])login[ \t]+\S{1,200}[ \t]+password[ \t]+/g;
const NETRC_LINE = /^[ \t]*password[ \t]+/gm;
const NPMRC = /:(_authToken|_auth|_password)[ \t]*=[ \t]*/g;

function findNetrcAndNpmrc(text: string, out: CandidateSink): void {
  const patterns = text.includes('machine') ? [NETRC_INLINE, NETRC_LINE] : [NETRC_INLINE];
  for (const pattern of patterns) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const value = readValue(text, pattern.lastIndex, true);
      if (value === undefined) continue;
      pushNamedValue(out, text, 'password', value, 'secret-assignment');
      pattern.lastIndex = value.next;
    }
  }
  NPMRC.lastIndex = 0;
  for (let match = NPMRC.exec(text); match !== null; match = NPMRC.exec(text)) {
    const value = readValue(text, NPMRC.lastIndex, true);
    if (value === undefined) continue;
    const name = match[1] ?? '';
    if (pushNamedValue(out, text, name === '_auth' ? 'npm_auth' : name, value, 'npm-token'))
      NPMRC.lastIndex = value.next;
  }
}

/** `.netrc` passwords and `.npmrc` registry credentials: fixed file formats, so also on code files. */
export const credentialFileRule: RedactRule = {
  name: 'credential-files',
  noisy: false,
  triggers: [String.raw`password[ \t]`, '_auth', '_password'],
  find: findNetrcAndNpmrc,
};
