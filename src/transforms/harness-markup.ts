/*
 * Harness markup in user text, read by scans instead of regexes: the regexes that say the same backtrack over
 * unclosed tags and long runs of whitespace (cubic for the command name), so one hostile user message could stall
 * a compaction. Each function states the regex it stands for; the tests hold them to it.
 */
const NAME_OPEN = '<command-name>';
const NAME_CLOSE = '</command-name>';

/**
 * The trimmed name inside the first `<command-name>…</command-name>` holding no `<`, as
 * `/<command-name>\s*([^<]*?)\s*<\/command-name>/` finds it, in linear time (that regex takes cubic time on a
 * long run of whitespace after an unclosed tag). The name ends at the first `<` after its tag, which must close it.
 */
export function commandName(text: string): string | undefined {
  for (let at = text.indexOf(NAME_OPEN); at !== -1; ) {
    const bodyStart = at + NAME_OPEN.length;
    const bracket = text.indexOf('<', bodyStart);
    if (bracket === -1) return undefined;
    if (text.startsWith(NAME_CLOSE, bracket)) return text.slice(bodyStart, bracket).trim();
    at = text.indexOf(NAME_OPEN, bracket);
  }
  return undefined;
}

/**
 * True when `text` ends with SWE-agent's observation footer, the editor state and the shell prompt after each
 * command's output: `(Open file: …)`, `(Current directory: …)` and `bash-$`, whitespace between them. Read from
 * the end, in linear time: the regex that says the same,
 * `/\(Open file: [^)\n]*\)\s*\n?\s*\(Current directory: [^)\n]*\)\s*\n?\s*bash-\$\s*$/`, is tried from
 * every `(Open file: ` to the end of its line and over every run of whitespace after it, quadratic on hostile text.
 */
export function endsWithSweAgentFooter(text: string): boolean {
  const body = text.trimEnd();
  if (!body.endsWith(PROMPT)) return false;
  const directory = body.slice(0, body.length - PROMPT.length).trimEnd();
  const close = directory.length - 1;
  const lineStart = parenthesisLineStart(directory, close);
  if (lineStart === undefined) return false;
  // Only whitespace may come between the file's `)` and `(Current directory: `.
  const directoryStart =
    lineStart + (directory.length - lineStart - directory.slice(lineStart).trimStart().length);
  if (
    !directory.startsWith(CURRENT_DIRECTORY, directoryStart) ||
    directoryStart + CURRENT_DIRECTORY.length > close
  )
    return false;
  const file = directory.slice(0, directoryStart).trimEnd();
  const fileClose = file.length - 1;
  const fileLineStart = parenthesisLineStart(file, fileClose);
  if (fileLineStart === undefined) return false;
  const fileStart = file.indexOf(OPEN_FILE, fileLineStart);
  return fileStart !== -1 && fileStart + OPEN_FILE.length <= fileClose;
}

const PROMPT = 'bash-$';
const CURRENT_DIRECTORY = '(Current directory: ';
const OPEN_FILE = '(Open file: ';

/**
 * Where the text a `)` at `close` can close starts: after the `)` or line break before it (`[^)\n]*\)`), or
 * undefined when `close` is no `)`.
 */
function parenthesisLineStart(text: string, close: number): number | undefined {
  if (close < 0 || text[close] !== ')') return undefined;
  if (close === 0) return 0;
  return Math.max(text.lastIndexOf('\n', close - 1), text.lastIndexOf(')', close - 1)) + 1;
}
