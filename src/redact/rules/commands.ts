import { type CandidateSink, pushCandidate } from '../candidate.js';
import type { RedactRule, RuleScope } from '../rule.js';
import { isReferenceOrPlaceholder, readValue, type ValueSpan } from '../values.js';
import { forEachMatch, type Matcher } from '../windows.js';
import { pushNamedValue } from './named-value.js';

// `aws configure set aws_secret_access_key X`, `npm config set //registry/:_authToken X`,
// `git config --global user.password X`: a setting named like a secret, then its value after a space.
// Matched in three steps, as `command(?:option)*(?:[ \t]+set)?[ \t]+(name)[ \t]+(?=[^\s-])` matched: the
// options loop pushed V8's backtracking stack for every option and threw RangeError on millions of them. An
// option is taken whole or not at all (what follows it must start with a blank), and only after the last one
// can the rest match (after any other comes `-`, which starts neither `set` nor a name), so a loop of sticky
// matches ends where the regex's loop ended.
const CONFIG_COMMAND = /(?<![\w-])(?:aws[ \t]+configure|(?:npm|yarn|pnpm|git)[ \t]+config)/g;
const CONFIG_OPTION = /[ \t]+--?[A-Za-z][\w-]{0,30}/y;
const CONFIG_NAME = /(?:[ \t]+set)?[ \t]+([A-Za-z_/.:@][\w./:@-]{0,120})[ \t]+(?=[^\s-])/y;

/** A config-set command and the setting it names (group 1), found from `lastIndex` like a global regex. */
export const CONFIG_SET: Matcher = {
  lastIndex: 0,
  exec(input: string): RegExpExecArray | null {
    CONFIG_COMMAND.lastIndex = this.lastIndex;
    for (let command = CONFIG_COMMAND.exec(input); command !== null; command = CONFIG_COMMAND.exec(input)) {
      let end = CONFIG_COMMAND.lastIndex;
      CONFIG_OPTION.lastIndex = end;
      while (CONFIG_OPTION.test(input)) end = CONFIG_OPTION.lastIndex;
      CONFIG_NAME.lastIndex = end;
      const rest = CONFIG_NAME.exec(input);
      if (rest !== null) {
        this.lastIndex = CONFIG_NAME.lastIndex;
        rest[0] = input.slice(command.index, this.lastIndex);
        rest.index = command.index;
        return rest;
      }
      CONFIG_COMMAND.lastIndex = command.index + 1;
    }
    this.lastIndex = 0;
    return null;
  },
};

// `gh secret set NAME --body X` (or `-b X`).
const SECRET_SET = /(?<![\w-])secret[ \t]+set[ \t]+[\w.-]{1,100}[ \t]+(?:--body|-b)(?:=|[ \t]+)/g;

const AWS_SECRET_NAME = /^aws_?secret_?(?:access_?)?key$/i;

function findConfigSettings(text: string, out: CandidateSink, scope?: RuleScope): void {
  forEachMatch(CONFIG_SET, text, scope?.windows, (match, _start, end) => {
    const name = match[1] ?? '';
    const value = readValue(text, end, true);
    if (value === undefined) return undefined;
    const kind = AWS_SECRET_NAME.test(name) ? 'aws-secret-key' : 'secret-assignment';
    pushNamedValue(out, text, name, value, kind);
    return value.next;
  });
  if (!text.includes('set')) return;
  forEachMatch(SECRET_SET, text, scope?.windows, (_match, _start, end) => {
    const value = readValue(text, end, true);
    if (value === undefined) return undefined;
    pushCandidate(out, value.start, value.end, 'secret-assignment', 'ends');
    return value.next;
  });
}

/** Settings named like secrets given to `config set` commands (AWS, npm, git…) and `gh secret set --body`. */
export const configSetRule: RedactRule = {
  name: 'config-set',
  windowed: true,
  noisy: false,
  find: findConfigSettings,
};

// `htpasswd((?:[ \t]+-[A-Za-z]{1,10})+)[ \t]+` read by hand: its loop pushed V8's backtracking stack for every
// flag and threw RangeError on millions of them. A flag counts when no letter follows its (at most 10) letters,
// as only a blank could follow it in a match; the flags end at the last one a blank follows.
const HTPASSWD = /(?<![\w-])htpasswd/g;
const HTPASSWD_FLAG = /[ \t]+-[A-Za-z]{1,10}(?![A-Za-z])/y;
const BLANKS = /[ \t]+/y;

/** The next `htpasswd` command at or after `from`: its flags (with their blanks) and where its blanks end. */
export function nextHtpasswd(text: string, from: number): { flags: string; end: number } | undefined {
  HTPASSWD.lastIndex = from;
  for (let match = HTPASSWD.exec(text); match !== null; match = HTPASSWD.exec(text)) {
    const start = HTPASSWD.lastIndex;
    let last = start;
    let beforeLast = start;
    HTPASSWD_FLAG.lastIndex = start;
    while (HTPASSWD_FLAG.test(text)) {
      beforeLast = last;
      last = HTPASSWD_FLAG.lastIndex;
    }
    // After any flag but the last come the blanks of the next one.
    const flagsEnd = text[last] === ' ' || text[last] === '\t' ? last : beforeLast;
    if (flagsEnd > start) {
      BLANKS.lastIndex = flagsEnd;
      BLANKS.test(text);
      return { flags: text.slice(start, flagsEnd), end: BLANKS.lastIndex };
    }
    HTPASSWD.lastIndex = match.index + 1;
  }
  return undefined;
}

/** Reads `count` shell words from `pos`; returns their spans (fewer when the line ends first). */
function shellWords(text: string, pos: number, count: number): ValueSpan[] {
  const words: ValueSpan[] = [];
  let cursor = pos;
  while (words.length < count) {
    while (text[cursor] === ' ' || text[cursor] === '\t') cursor++;
    const word = readValue(text, cursor, true);
    if (word === undefined || word.next === cursor) break;
    words.push(word);
    cursor = word.next;
  }
  return words;
}

/**
 * `htpasswd -b[c] file user password` and `htpasswd -nb user password`: in batch mode the password is the
 * last argument.
 */
function findHtpasswd(text: string, out: CandidateSink): void {
  for (let match = nextHtpasswd(text, 0); match !== undefined; ) {
    const { flags, end } = match;
    const count = /n/.test(flags) ? 2 : 3;
    const password = /b/.test(flags) ? shellWords(text, end, count)[count - 1] : undefined;
    match = nextHtpasswd(text, password?.next ?? end);
    if (password === undefined) continue;
    if (!isReferenceOrPlaceholder(text.slice(password.start, password.end)))
      pushCandidate(out, password.start, password.end, 'secret-flag', 'full');
  }
}

/** Passwords given to `htpasswd` in batch mode. */
export const htpasswdRule: RedactRule = {
  name: 'htpasswd',
  noisy: false,
  triggers: ['htpasswd'],
  find: findHtpasswd,
};

// `auth=("admin", "pw")`, `http_auth=('u', 'p')`, `HTTPBasicAuth("u", "p")`, `aiohttp.BasicAuth("u", "p")`:
// found from `auth`, the whole name read back from there.
const BASIC_AUTH = /[Aa]uth[ \t]*(?:=[ \t]*)?[([][ \t]*/g;
const BASIC_AUTH_NAME =
  /^(?:[A-Za-z]{0,12}_)?(?:auth|HTTPBasicAuth|HTTPDigestAuth|HTTPProxyAuth|BasicAuth|DigestAuth)$/;

/** True when the identifier that ends with the `auth` at `pos` names a basic-auth pair. */
function isBasicAuthName(text: string, pos: number): boolean {
  let start = pos;
  while (start > 0 && /[A-Za-z_]/.test(text[start - 1] as string)) start--;
  if (/\w/.test(text[start - 1] ?? ' ')) return false;
  return BASIC_AUTH_NAME.test(text.slice(start, pos + 4));
}

function findBasicAuth(text: string, out: CandidateSink, scope?: RuleScope): void {
  forEachMatch(BASIC_AUTH, text, scope?.windows, (_match, start, end) => {
    if (!isBasicAuthName(text, start)) return undefined;
    const user = readValue(text, end, false);
    if (user === undefined) return undefined;
    let cursor = user.next;
    while (text[cursor] === ' ' || text[cursor] === '\t') cursor++;
    if (text[cursor] !== ',') return undefined;
    cursor++;
    while (text[cursor] === ' ' || text[cursor] === '\t') cursor++;
    const password = readValue(text, cursor, false);
    if (password === undefined) return undefined;
    const secret = text.slice(password.start, password.end);
    if (secret.length > 0 && !isReferenceOrPlaceholder(secret))
      pushCandidate(out, password.start, password.end, 'secret-field', 'full');
    return password.next;
  });
}

/** The password of a (user, password) pair of string literals passed as HTTP basic auth. */
export const basicAuthRule: RedactRule = {
  name: 'basic-auth-pair',
  windowed: true,
  noisy: false,
  find: findBasicAuth,
};
