import fc from 'fast-check';
import { FAKE, fakePem } from './fixtures.js';

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random credential-like body. */
export const tokenBody = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: min, maxLength: max });

/** A secret of some family, generated or taken from the fixtures. */
export const secretArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...Object.values(FAKE)),
  tokenBody(4, 60),
  tokenBody(20, 50).map((body) => `sk-proj-${body}`),
  tokenBody(36, 40).map((body) => `ghp_${body}`),
  tokenBody(8, 30).map((body) => `${body}-${body.slice(0, 3)}!`),
  fc.constant(fakePem('RSA PRIVATE KEY', 2)),
);

/** Text that puts a secret in front of: assignments, headers, URLs, fields, flags. */
const CONTEXTS: readonly ((secret: string) => string)[] = [
  (s) => `export API_TOKEN=${s}`,
  (s) => `DB_PASSWORD="${s}"`,
  (s) => `password: ${s}`,
  (s) => `  client_secret: |\n    ${s}\n`,
  (s) => `Authorization: Bearer ${s}`,
  (s) => `Authorization: Basic ${s}`,
  (s) => `X-Api-Key: ${s}`,
  (s) => `Cookie: sid=${s}; theme=dark`,
  (s) => `{"password": "${s}", "user": "bob"}`,
  (s) => `{\\"api_key\\": \\"${s}\\"}`,
  (s) => `postgres://app:${s}@db:5432/x`,
  (s) => `https://${s}@github.com/o/r`,
  (s) => `https://x.io/p?access_token=${s}&a=1`,
  (s) => `client_secret=${s}&grant_type=x`,
  (s) => `--password ${s}`,
  (s) => `curl -u bob:${s} https://x`,
  (s) => `Server=x;Password=${s};Database=y`,
  (s) => `- name: APP_SECRET\n  value: ${s}`,
  (s) => `machine h login u password ${s}`,
  (s) => `apiKey: "${s}",`,
  (s) => s,
];

/** Filler between secrets: words, punctuation that rules care about, line breaks, masks. */
const FILLER = fc.constantFrom(
  ' ',
  '\n',
  '\t',
  ', ',
  '; ',
  '=',
  ':',
  '"',
  "'",
  '&',
  '@',
  '/',
  '?',
  '#',
  '.',
  '\\n',
  '\\"',
  'the token is ',
  'password ',
  'TOKEN',
  'export ',
  '«redacted»',
  'sk-pro…abcd',
  'https://',
  '-----BEGIN PRIVATE KEY-----',
);

/** Realistic text carrying secrets in every context, glued with adversarial filler. */
export const secretBearingText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.constantFrom(...CONTEXTS), secretArb)
          .map(([context, secret]) => context(secret)),
      },
      { weight: 2, arbitrary: FILLER },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    ),
    { maxLength: 14 },
  )
  .map((pieces) => pieces.join(''));
