import { type CandidateSink, type MaskStyle, pushCandidate } from '../candidate.js';
import type { SecretKind } from '../kinds.js';
import { classifySecretName } from '../names.js';
import type { RedactRule, RuleScope } from '../rule.js';
import { isReferenceOrPlaceholder, looksLikeCredential, readValue } from '../values.js';
import { forEachMatch } from '../windows.js';

/** A quote, bare or escaped in JSON nested in JSON strings at any depth. */
const QUOTE = String.raw`(?:\\*["'])`;

// `Authorization: Bearer x`, `"Authorization": "Basic x"`, `('Authorization', 'token x')`, `-H "Authorization: …"`.
const AUTHORIZATION = new RegExp(
  String.raw`(?<![\w-])(?:proxy-)?authorization(?:${QUOTE}?[ \t]*[:=]|${QUOTE}[ \t]*,)[ \t]*${QUOTE}?`,
  'gi',
);

/** Schemes whose credential is one token. */
const TOKEN_SCHEMES = new Set(
  'bearer basic token bot negotiate ntlm apikey api-key sso-key key jwt dpop splunk'.split(' '),
);
/** Schemes whose credentials are parameters (`Digest username="…", response="…"`): the rest of the value goes. */
const PARAM_SCHEMES = new Set(['digest', 'aws4-hmac-sha256', 'oauth', 'hmac', 'signature']);

function findAuthorization(text: string, out: CandidateSink, scope?: RuleScope): void {
  forEachMatch(AUTHORIZATION, text, scope?.windows, (match, _start, pos) => {
    const last = match[0][match[0].length - 1];
    const quote = last === '"' || last === "'" ? last : undefined;
    const scheme = /^([A-Za-z0-9-]{2,20})[ \t]+/.exec(text.slice(pos, pos + 24));
    const schemeName = scheme?.[1]?.toLowerCase();
    if (scheme !== null && schemeName !== undefined && PARAM_SCHEMES.has(schemeName)) {
      const start = pos + scheme[0].length;
      const end = valueEnd(text, start, quote);
      if (end - start >= 8) pushCandidate(out, start, end, 'authorization-header', 'full');
      return Math.max(end, pos);
    }
    const start =
      scheme !== null && schemeName !== undefined && TOKEN_SCHEMES.has(schemeName)
        ? pos + scheme[0].length
        : pos;
    return maskHeaderValue(
      text,
      start,
      out,
      'authorization-header',
      schemeName === 'basic' ? 'full' : 'ends',
    );
  });
}

/**
 * Reads the header value at `start` and marks it when it looks like a credential (not a reference or a
 * placeholder); where matching goes on, or `undefined` when there is no value.
 */
function maskHeaderValue(
  text: string,
  start: number,
  out: CandidateSink,
  kind: SecretKind,
  mask: MaskStyle,
): number | undefined {
  const value = readValue(text, start, true);
  if (value === undefined) return undefined;
  const credential = text.slice(value.start, value.end);
  if (!isReferenceOrPlaceholder(credential) && looksLikeCredential(credential))
    pushCandidate(out, value.start, value.end, kind, mask);
  return value.next;
}

/**
 * End of a header value: the unescaped quote that closes it when a quote opened it (inner quotes of the other
 * kind, as in `'Digest username="bob"'`, belong to the value), else the end of the line.
 */
function valueEnd(text: string, start: number, quote: string | undefined): number {
  let end = start;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') {
    if (text[end] === quote && text[end - 1] !== '\\') break;
    end++;
  }
  while (end > start && /[\s"'\\]/.test(text[end - 1] ?? '')) end--;
  return end;
}

/** `Authorization` and `Proxy-Authorization` values, whatever the syntax around them; the scheme is kept. */
export const authorizationRule: RedactRule = {
  name: 'authorization-header',
  noisy: false,
  windowed: true,
  find: findAuthorization,
};

// A dashed name (or `apikey`): the dash comes within 30 characters, so words without one are dropped early.
const HEADER = new RegExp(
  String.raw`(?<![\w/-])([A-Za-z][A-Za-z0-9]{0,30}-[A-Za-z0-9-]{1,60}|[Aa][Pp][Ii](?:[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]))${QUOTE}?[ \t]*:[ \t]*${QUOTE}?`,
  'g',
);

function findApiKeyHeaders(text: string, out: CandidateSink, scope?: RuleScope): void {
  forEachMatch(HEADER, text, scope?.windows, (match, _start, end) => {
    const name = match[1] ?? '';
    if (name.toLowerCase().endsWith('authorization')) return undefined;
    const nameClass = classifySecretName(name);
    if (nameClass === undefined) return undefined;
    return maskHeaderValue(text, end, out, 'api-key-header', nameClass === 'password' ? 'full' : 'ends');
  });
}

/** Dashed header names that carry a key or token: `X-Api-Key`, `X-Auth-Token`, `PRIVATE-TOKEN`, `api-key`. */
export const apiKeyHeaderRule: RedactRule = {
  name: 'api-key-header',
  windowed: true,
  noisy: false,
  find: findApiKeyHeaders,
};

const COOKIE = new RegExp(
  String.raw`(?<![\w-])(?:set-)?cookie${QUOTE}?[ \t]*:[ \t]*|\.cookie[ \t]*=[ \t]*|(?<![\w-])(?:-b|--cookie)[ \t]+`,
  'gi',
);
const COOKIE_ATTRIBUTES = new Set(
  'path domain expires max-age samesite secure httponly priority partitioned version comment'.split(' '),
);

function findCookies(text: string, out: CandidateSink, scope?: RuleScope): void {
  forEachMatch(COOKIE, text, scope?.windows, (_match, _start, pos) => {
    const quoted = readValue(text, pos, false);
    const start = quoted?.start ?? pos;
    let end = quoted?.end ?? pos;
    if (quoted === undefined) while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    cookiePairs(text, start, end, out);
    return Math.max(quoted?.next ?? end, pos);
  });
}

/** Masks the value of every `name=value` pair of a cookie string, keeping names and Set-Cookie attributes. */
function cookiePairs(text: string, start: number, end: number, out: CandidateSink): void {
  let pairStart = start;
  while (pairStart < end) {
    let pairEnd = pairStart;
    let equals = -1;
    for (; pairEnd < end && text[pairEnd] !== ';'; pairEnd++)
      if (equals === -1 && text[pairEnd] === '=') equals = pairEnd;
    if (equals !== -1) {
      const name = text.slice(pairStart, equals).trim().toLowerCase();
      let valueStart = equals + 1;
      let valueEnd = pairEnd;
      while (valueStart < valueEnd && /[\s"]/.test(text[valueStart] ?? '')) valueStart++;
      while (valueEnd > valueStart && /[\s"\\]/.test(text[valueEnd - 1] ?? '')) valueEnd--;
      const value = text.slice(valueStart, valueEnd);
      if (/^[^\s=]+$/.test(name) && !COOKIE_ATTRIBUTES.has(name) && !isReferenceOrPlaceholder(value))
        pushCandidate(out, valueStart, valueEnd, 'cookie', 'ends');
    }
    pairStart = pairEnd + 1;
  }
}

/** `Cookie:` and `Set-Cookie:` headers, `document.cookie = …`, `curl -b`: every cookie value. */
export const cookieRule: RedactRule = {
  name: 'cookie',
  noisy: false,
  windowed: true,
  find: findCookies,
};
