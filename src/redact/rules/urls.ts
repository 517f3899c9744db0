import { type CandidateSink, pushCandidate } from '../candidate.js';
import type { RedactRule, RuleScope } from '../rule.js';
import { isReferenceOrPlaceholder, looksLikeCredential } from '../values.js';
import { forEachMatch } from '../windows.js';

/** Schemes of databases and brokers: a password in their URL is a `connection-string` finding. */
const DATABASE_SCHEMES = new Set(
  (
    'postgres postgresql mysql mariadb mongodb redis rediss amqp amqps mssql sqlserver oracle cockroachdb ' +
    'clickhouse snowflake neo4j bolt couchdb cassandra memcached nats kafka ldap ldaps mqtt mqtts ' +
    'elasticsearch opensearch influxdb db2 sybase presto trino'
  ).split(' '),
);

/** Characters that end a URL authority (`user:pass@host:port`). */
function endsAuthority(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0x2f || // /
    code === 0x3f || // ?
    code === 0x23 || // #
    code === 0x22 || // "
    code === 0x27 || // '
    code === 0x3c || // <
    code === 0x3e || // >
    code === 0x5c || // backslash
    code === 0x60 // `
  );
}

/**
 * Credentials in URLs: `scheme://user:password@host` (the password; the last `@` before the host wins, so a
 * raw `@` inside the password is covered) and `scheme://TOKEN@host` when the user part is shaped like a token
 * (Sentry DSNs, `https://<token>@github.com`). Templates (`{password}`, `${PASS}`) are left alone.
 */
function isSchemeChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2e ||
    code === 0x2d
  );
}

/** The scheme that ends right before `colon` (letters first, at most 31 characters), or undefined. */
function schemeBefore(text: string, colon: number): string | undefined {
  let start = colon;
  while (start > 0 && colon - start < 32 && isSchemeChar(text.charCodeAt(start - 1))) start--;
  if (colon - start < 2 || (start > 0 && isSchemeChar(text.charCodeAt(start - 1)))) return undefined;
  while (start < colon && !/[A-Za-z]/.test(text[start] ?? '')) start++;
  return start < colon - 1 ? text.slice(start, colon) : undefined;
}

/**
 * Credentials in URLs: `scheme://user:password@host` (the password; the last `@` before the host wins, so a
 * raw `@` inside the password is covered) and `scheme://TOKEN@host` when the user part is shaped like a token
 * (Sentry DSNs, `https://<token>@github.com`). Templates (`{password}`, `${PASS}`) are left alone. URLs are
 * found from their `://` (or `:\/\/` in escaped JSON) with a bounded look back for the scheme.
 */
function findUrlCredentials(text: string, out: CandidateSink): void {
  for (const separator of ['://', ':\\/\\/']) {
    let from = 0;
    for (let colon = text.indexOf(separator, from); colon !== -1; colon = text.indexOf(separator, from)) {
      const start = colon + separator.length;
      let end = start;
      let at = -1;
      for (; end < text.length && !endsAuthority(text.charCodeAt(end)); end++)
        if (text[end] === '@') at = end;
      from = Math.max(end, start);
      const scheme = schemeBefore(text, colon);
      if (at === -1 || scheme === undefined) continue;
      pushUserInfo(text, scheme.toLowerCase().split('+')[0] ?? '', start, at, out);
    }
  }
}

function pushUserInfo(text: string, scheme: string, start: number, at: number, out: CandidateSink): void {
  let colon = start;
  while (colon < at && text[colon] !== ':') colon++;
  if (colon < at) {
    const password = text.slice(colon + 1, at);
    if (password.length === 0 || isReferenceOrPlaceholder(password)) return;
    const kind = DATABASE_SCHEMES.has(scheme) || scheme === 'jdbc' ? 'connection-string' : 'url-credentials';
    pushCandidate(out, colon + 1, at, kind, 'full');
    return;
  }
  const token = text.slice(start, at);
  if (token.length >= 16 && looksLikeCredential(token) && !isReferenceOrPlaceholder(token))
    pushCandidate(out, start, at, 'url-credentials', 'ends');
}

/** Passwords and tokens in the user-info part of URLs, including database connection URLs. */
export const urlCredentialsRule: RedactRule = {
  name: 'url-credentials',
  noisy: false,
  // After the colon of the scheme: the slashes, plain or escaped, and an `@` before the authority ends.
  triggers: [
    { after: ':', pattern: String.raw`\/\/[^\x00-\x20\/?#"'<>\\\x60]*@` },
    { after: ':', pattern: String.raw`\\\/\\\/[^\x00-\x20\/?#"'<>\\\x60]*@` },
  ],
  find: findUrlCredentials,
};

/** Parameter names whose value is a credential in a query string or form body, lowercase. */
const SECRET_PARAMS = new Set(
  (
    'access_token refresh_token id_token token auth auth_token api_key apikey api-key client_secret secret ' +
    'password passwd pwd pass sig signature x-amz-signature x-amz-security-token x-amz-credential ' +
    'x-goog-signature x-goog-credential code session sessionid session_id jwt private_token access_key ' +
    'secret_key otp key_secret app_secret'
  ).split(' '),
);
const PASSWORD_PARAMS = new Set(['password', 'passwd', 'pwd', 'pass']);

/** Any name of {@link SECRET_PARAMS}, as a regex source (with an optional `[]`), for the trigger scan. */
const SECRET_PARAM_SOURCE = `(?:${[...SECRET_PARAMS].map((name) => name.replace(/[.-]/g, (char) => `\\${char}`)).join('|')})(?:\\[\\])?`;

const PARAM = /([?&#])([A-Za-z0-9_.[\]%-]{1,60})=/g;

/** Characters that end a parameter value. */
function endsParam(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0x26 || // &
    code === 0x23 || // #
    code === 0x22 ||
    code === 0x27 ||
    code === 0x3c ||
    code === 0x3e ||
    code === 0x5c ||
    code === 0x60 ||
    code === 0x3d // = never occurs unescaped in a value; stopping there keeps the scan linear
  );
}

function paramEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && !endsParam(text.charCodeAt(end))) end++;
  return end;
}

function isSecretParam(name: string): boolean {
  return SECRET_PARAMS.has(name.toLowerCase().replace(/\[\]$/, ''));
}

function pushParam(
  out: CandidateSink,
  text: string,
  name: string,
  start: number,
  end: number,
  kind: 'url-query-secret' | 'form-body',
): void {
  let stop = end;
  while (stop > start && /[.,)\]}]/.test(text[stop - 1] ?? '')) stop--;
  const value = text.slice(start, stop);
  if (value.length === 0 || isReferenceOrPlaceholder(value)) return;
  pushCandidate(out, start, stop, kind, PASSWORD_PARAMS.has(name.toLowerCase()) ? 'full' : 'ends');
}

/**
 * Secret query parameters (`?access_token=`, `&X-Amz-Signature=`, `#id_token=`) and the secret fields of
 * form bodies after an `&` (`-d 'username=a&password=b'`). A pair after `&` is a query parameter when a `?`
 * or `#` opened the same run of text, else a form field.
 */
function findParams(text: string, out: CandidateSink): void {
  let cursor = 0;
  let inQuery = false;
  PARAM.lastIndex = 0;
  for (let match = PARAM.exec(text); match !== null; match = PARAM.exec(text)) {
    const name = match[2] ?? '';
    const end = paramEnd(text, PARAM.lastIndex);
    if (isSecretParam(name)) {
      // Walk forward to the match, remembering whether a `?`/`#` opened the current run of text.
      for (; cursor < match.index; cursor++) {
        const code = text.charCodeAt(cursor);
        if (code === 0x3f || code === 0x23) inQuery = true;
        else if (code <= 0x20 || code === 0x22 || code === 0x27 || code === 0x60) inQuery = false;
      }
      const kind = match[1] === '&' && !inQuery ? 'form-body' : 'url-query-secret';
      pushParam(out, text, name, PARAM.lastIndex, end, kind);
    }
    PARAM.lastIndex = end;
  }
}

function isParamNameChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f || // _
    code === 0x2e || // .
    code === 0x2d || // -
    code === 0x25 || // %
    code === 0x5b || // [
    code === 0x5d // ]
  );
}

/**
 * The first pair of a form body (`client_secret=…&grant_type=…`) has no `?` or `&` before it; it is found from
 * the `&` after it by looking back over its value and name. Each character is looked at from one `&` only.
 */
function findFormFirstPairs(text: string, out: CandidateSink): void {
  if (!text.includes('=')) return;
  for (let amp = text.indexOf('&'); amp !== -1; amp = text.indexOf('&', amp + 1)) {
    let equals = amp;
    while (equals > 0 && !endsParam(text.charCodeAt(equals - 1))) equals--;
    if (text[equals - 1] !== '=') continue;
    let nameStart = equals - 1;
    while (nameStart > 0 && equals - 1 - nameStart < 60 && isParamNameChar(text.charCodeAt(nameStart - 1)))
      nameStart--;
    const before = text.charCodeAt(nameStart - 1);
    const boundary =
      nameStart === 0 || before <= 0x20 || before === 0x22 || before === 0x27 || before === 0x60;
    const name = text.slice(nameStart, equals - 1);
    if (boundary && name.length > 0 && isSecretParam(name))
      pushParam(out, text, name, equals, amp, 'form-body');
  }
}

/** Secret query parameters and the form-body fields after an `&`. */
export const paramRule: RedactRule = {
  name: 'query-params',
  noisy: false,
  triggers: ['?', '&', '#'].map((after) => ({ after, pattern: `${SECRET_PARAM_SOURCE}=` })),
  caseless: true,
  find: findParams,
};

/** The first field of a form body, found from the `&` after it. */
export const formFirstPairRule: RedactRule = {
  name: 'form-first-pair',
  noisy: false,
  find: findFormFirstPairs,
};

// The key must follow a separator, a quote, a blank or the start; a look-behind keeps runs of blanks from each
// starting a scan.
const CONNECTION_KEY =
  /(?<![^;"'\s])(password|pwd|accountkey|sharedaccesskey|sharedaccesssignature)[ \t]*=[ \t]*/gi;

/**
 * `Key=value;` connection strings (ADO.NET, ODBC, JDBC properties, Azure Storage / Service Bus): passwords
 * when the string has a `;` around them, Azure account keys and SAS signatures always.
 */
function findConnectionStrings(text: string, out: CandidateSink, scope?: RuleScope): void {
  forEachMatch(CONNECTION_KEY, text, scope?.windows, (match, keyStart, start) => {
    const key = (match[1] ?? '').toLowerCase();
    let end = start;
    while (end < text.length && !/[;"'\r\n]/.test(text[end] ?? '')) end++;
    const isPassword = key === 'password' || key === 'pwd';
    if (isPassword && !afterSeparator(text, keyStart) && text[end] !== ';') return end;
    let stop = end;
    while (stop > start && /\s/.test(text[stop - 1] ?? '')) stop--;
    const value = text.slice(start, stop);
    if (value.length > 0 && !isReferenceOrPlaceholder(value))
      pushCandidate(out, start, stop, 'connection-string', isPassword ? 'full' : 'ends');
    return end;
  });
}

/** True when a `;` comes before `pos`, blanks aside. */
function afterSeparator(text: string, pos: number): boolean {
  let index = pos - 1;
  while (index >= 0 && pos - index < 16 && (text[index] === ' ' || text[index] === '\t')) index--;
  return text[index] === ';';
}

/** Passwords and keys inside `;`-separated connection strings. */
export const connectionStringRule: RedactRule = {
  name: 'connection-string',
  noisy: false,
  windowed: true,
  find: findConnectionStrings,
};
