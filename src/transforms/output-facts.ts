import { firstNonBlankLine } from '../inspect/text-lines.js';
import { formatCount, nonBlankLines, plural } from './text-facts.js';

// Exit statuses as shells, agents and harnesses print them. Only the first and last lines of an output are
// searched, so a file that merely mentions `returncode` in its body is not mistaken for a status report.
const STATUS_PATTERNS: readonly RegExp[] = [
  /\[The command (?:completed|finished|exited) with exit code (-?\d+)\.?\]/i,
  /\bexit(?:ed)?(?: with)? (?:code|status)\s*[:=]?\s*(-?\d+)\b/i,
  /\breturn ?code\s*[:=]\s*(-?\d+)\b/i,
  /["']?(?:exit_code|exitCode|returncode|return_code|exit_status)["']?\s*[:=]\s*(-?\d+)\b/,
  /<exit_code>(-?\d+)<\/exit_code>/,
];
const EDGE_LINES = 3;
const EDGE_CHARS = 2000;

/** The exit status an output reports about itself (`Exit code 1`, `"exit_code": 2`, `returncode=0`…). */
export function exitStatus(text: string): number | undefined {
  const lines = nonBlankLines(text.length > 2 * EDGE_CHARS ? edges(text) : text);
  const candidates = [...lines.slice(-EDGE_LINES).reverse(), ...lines.slice(0, EDGE_LINES)];
  for (const line of candidates) {
    if (line.length > 500) continue;
    for (const pattern of STATUS_PATTERNS) {
      const match = pattern.exec(line);
      if (match?.[1] !== undefined) return Number(match[1]);
    }
  }
  if (text.trimStart().startsWith('{')) {
    const match = STATUS_PATTERNS[3]?.exec(edges(text));
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return undefined;
}

function edges(text: string): string {
  return text.length <= 2 * EDGE_CHARS ? text : `${text.slice(0, EDGE_CHARS)}\n${text.slice(-EDGE_CHARS)}`;
}

const ERROR_WORDS =
  /\b(?:error|errors|exception|traceback|failed|failure|fatal|denied|not found|no such file|panic|segmentation fault|E(?:NOENT|ACCES|PERM|EXIST|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT))\b|\w(?:Error|Exception)\b|ERR!/i;
const NOT_AN_ERROR = /\b(?:0|no|zero) (?:errors?|failures?|failed)\b|\berrors?: 0\b/i;
const CODE_LIKE =
  /^(?:raise|except|catch|throw|def|class|function|import|from|export|const|let|var|if|elif|else|return|assert|#|\/\/|\*|\/\*)\b|\bnew \w*Error\(|=>|\bcatch\s*\(/;
const LISTING_LINE = /^\s*\d+(?:→|\t|:|\|)/;
const CLEAR_ERROR =
  /^(?:error|fatal|exception|traceback|panic)\b|^[\w.]*(?:Error|Exception)\b|^npm ERR!|command not found|No such file or directory|Permission denied/i;

/** True when a trimmed line reports an error (and is not code that merely mentions one). */
export function isErrorLine(line: string): boolean {
  if (line.length < 4 || !ERROR_WORDS.test(line) || NOT_AN_ERROR.test(line)) return false;
  return !CODE_LIKE.test(line);
}

/**
 * The lines of a failed output worth keeping verbatim: its first line (what the tool said first, even a bare
 * `Exit code 1`: it is how the failure was reported), then the first few and the last two lines that report
 * an error (where a traceback or a test run starts failing and the exception or summary it ends with). At
 * most six distinct lines, each trimmed, and no more lines once about `budget` characters are taken.
 */
export function failureLines(text: string, budget = 800): string[] {
  const lines = nonBlankLines(text).filter((line) => !LISTING_LINE.test(line));
  const errors = lines.filter(isErrorLine);
  const last = errors.length - 1;
  // Chosen by priority, so a tight budget still keeps the first report and the final exception, then shown
  // in the order the output printed them.
  const wanted = [lines[0], errors[0], errors[last], errors[1], errors[2], errors[last - 1]];
  const chosen = new Set<string>();
  let used = 0;
  for (const line of wanted) {
    if (line === undefined || chosen.has(line)) continue;
    if (chosen.size > 0 && used + line.length > budget) continue;
    chosen.add(line);
    used += line.length;
  }
  return lines.filter((line) => chosen.delete(line));
}

/** The error an output that did not declare a failure still clearly reports on its first line, if any. */
export function clearErrorLine(text: string): string | undefined {
  // Only the first line is read: splitting the first 4,000 characters into lines cost more than the test.
  const first = firstNonBlankLine(text.slice(0, 4000));
  return first !== '' && CLEAR_ERROR.test(first) && !NOT_AN_ERROR.test(first) ? first : undefined;
}

/** How many hits a search output reports: its own count when it states one, else its non-blank lines. */
export function searchHits(text: string): string {
  const found = /^Found (\d+) (file|match|result|line|occurrence)(?:e?s)?\b/im.exec(text);
  if (found?.[1] !== undefined && found[2] !== undefined) return plural(Number(found[1]), found[2]);
  const total = /"total_count"\s*:\s*(\d+)/.exec(text);
  if (total?.[1] !== undefined) return plural(Number(total[1]), 'match');
  if (/^No (?:matches|files|results)(?: were)? found/im.test(text.slice(0, 500))) return 'no matches';
  const lines = nonBlankLines(text).length;
  return lines === 0 ? 'no output' : `${formatCount(lines)} result line${lines === 1 ? '' : 's'}`;
}
