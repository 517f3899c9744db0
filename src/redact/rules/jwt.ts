import { type CandidateSink, pushCandidate } from '../candidate.js';
import type { RedactRule } from '../rule.js';

// A JSON header (`{"` is `eyJ` in base64url), a second segment, and up to three more (JWE has five). Every
// segment is one character class ended by a dot or by a character outside it, so nothing is rescanned.
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){0,3}/g;

function findJwts(text: string, out: CandidateSink): void {
  JWT.lastIndex = 0;
  for (let match = JWT.exec(text); match !== null; match = JWT.exec(text)) {
    let end = match.index + match[0].length;
    if (text.charCodeAt(end - 1) === 0x2e) end--;
    pushCandidate(out, match.index, end, 'jwt', 'ends');
  }
}

/** JSON Web Tokens (signed or encrypted). A lone base64 JSON blob without a second segment is left alone. */
export const jwtRule: RedactRule = { name: 'jwt', noisy: false, triggers: ['eyJ'], find: findJwts };
