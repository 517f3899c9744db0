import { type CandidateSink, pushCandidate } from '../candidate.js';
import { classifySecretName } from '../names.js';
import type { RedactRule, RuleScope } from '../rule.js';
import { isReferenceOrPlaceholder, readValue } from '../values.js';
import { forEachMatch } from '../windows.js';
import { pushNamedValue } from './named-value.js';

const LONG_FLAG = /(?<![\w-])--([A-Za-z][\w-]{0,60})(?:=|[ \t]+)/g;

function findLongFlags(text: string, out: CandidateSink, scope?: RuleScope): void {
  if (!text.includes('--')) return;
  forEachMatch(LONG_FLAG, text, scope?.windows, (match, _start, end) => {
    const name = match[1] ?? '';
    // Decided before the value is read: an unmasked value does not move the scan, so the next flag glued
    // inside it (`--a=--b=--c=…`, no blank) would read the rest of the token again, quadratic in its length.
    if (text[end] === '-' || classifySecretName(name) === undefined) return undefined;
    const value = readValue(text, end, true);
    if (value === undefined || text[value.start] === '-') return undefined;
    return pushNamedValue(out, text, name, value, 'secret-flag') ? value.next : undefined;
  });
}

/** `--password x`, `--api-key=x`, `--client-secret x`: command-line flags named like secrets. */
export const secretFlagRule: RedactRule = {
  name: 'secret-flag',
  windowed: true,
  noisy: true,
  find: findLongFlags,
};

// `-u user:pass` only on a curl command line: `date -u +%H:%M`, `docker run -u 1000:1000` are not credentials.
const CURL_USER = /(?<![\w-])curl\b[^\n]{0,300}?[ \t](?:-u|--user)(?:=|[ \t]+)?["']?[^\s"':]{1,200}:/g;
const MYSQL_PASSWORD =
  /(?<![\w-])(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb)\b[^\n]{0,300}?[ \t]-p(?=[^\s-])/g;
const SSHPASS = /(?<![\w-])sshpass[ \t]+-p[ \t]*/g;

// Another `-p<password>` of the same command: it ends at a line break or a shell operator.
const MORE_PASSWORDS = /[^\n;&|]*?[ \t]-p(?=[^\s-])/y;

function findCliPasswords(text: string, out: CandidateSink): void {
  for (const pattern of [CURL_USER, MYSQL_PASSWORD, SSHPASS]) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      let value = readValue(text, pattern.lastIndex, true);
      while (value !== undefined) {
        pattern.lastIndex = value.next;
        const secret = text.slice(value.start, value.end);
        if (!isReferenceOrPlaceholder(secret))
          pushCandidate(out, value.start, value.end, 'secret-flag', 'full');
        if (pattern !== MYSQL_PASSWORD) break;
        // `mysql -pX … -pY`: every password of the command line.
        MORE_PASSWORDS.lastIndex = value.next;
        value = MORE_PASSWORDS.test(text) ? readValue(text, MORE_PASSWORDS.lastIndex, true) : undefined;
      }
    }
  }
}

/** Passwords given on well-known command lines: `curl -u user:pass`, `mysql -pSECRET`, `sshpass -p`. */
export const cliPasswordRule: RedactRule = {
  name: 'cli-passwords',
  noisy: false,
  triggers: ['curl', 'mysql', 'mariadb', 'sshpass'],
  find: findCliPasswords,
};
