/**
 * How a name (environment variable, JSON key, flag, header) says its value is secret. `password`: a
 * low-entropy human secret, always fully masked. `secret`: a key or token. `weak`: a bare ambiguous name
 * (`token`) whose value must also look like a credential before it is masked.
 */
export type SecretNameClass = 'password' | 'secret' | 'weak';

const PASSWORD_WORDS = new Set(['password', 'passwd', 'passphrase']);

/** Words before `token` that make it a count, a tokenizer symbol, a cursor or a parser state, not a credential. */
const TOKEN_NOT_SECRET = new Set(
  (
    'max min num n bos eos pad unk sep cls mask start end total input output prompt completion special new ' +
    'next last first stop per image cached cache reasoning thinking context eot eom sentence decoder encoder ' +
    'vocab word default added add page pagination continuation sync resume current curr cur prev previous ' +
    'peek expected parse parser lex lexer tok is has use enable enabled require required show with no count ' +
    'cancellation cancel abort lookahead unexpected invalid string eof ident keyword literal punct operator ' +
    'type kind sub split chat assistant system tool audio video text byte bytes char from to merge merged ' +
    'csrf xsrf'
  ).split(' '),
);

/** Words before `tokens` that keep it a credential list. */
const TOKENS_SECRET = new Set(['access', 'refresh', 'auth', 'api', 'bearer', 'session', 'id']);

/** Words before `key` that make it a credential in any naming style. */
const KEY_SECRET = new Set(
  (
    'api access secret private client master signing sign encryption encrypt decryption decrypt auth license ' +
    'licence account service subscription app application consumer webhook admin deploy hmac jwt session ' +
    'shared sas root crypto cipher aes otp totp mfa recovery ingest write openai anthropic stripe ' +
    'sendgrid mailgun twilio aws gcp google github gitlab slack discord telegram huggingface hf npm pypi ' +
    'azure cohere mistral groq gemini replicate pinecone mapbox sentry datadog dd newrelic firebase ' +
    'supabase algolia'
  ).split(' '),
);

/** Words before `key` that make it an identifier even in an UPPER_SNAKE environment name. */
const KEY_NOT_SECRET = new Set(
  (
    'public pub primary foreign sort partition cache lookup hash idempotency object row unique index group ' +
    'dict map cursor routing s3 bucket file path translation i18n message event config settings env menu ' +
    'hot short shortcut keyboard id dedup dedupe composite natural surrogate range shard column table ' +
    'local query react component list item node state form field prop attr storage'
  ).split(' '),
);

/** Single words that end with a credential compound written without separators (`apikey`, `authtoken`). */
const COMPOUNDS: readonly (readonly [string, SecretNameClass])[] = [
  ['password', 'password'],
  ['passwd', 'password'],
  ['passphrase', 'password'],
  ['apikey', 'secret'],
  ['apitoken', 'secret'],
  ['accesstoken', 'secret'],
  ['authtoken', 'secret'],
  ['refreshtoken', 'secret'],
  ['sessiontoken', 'secret'],
  ['bearertoken', 'secret'],
  ['secretkey', 'secret'],
  ['accesskey', 'secret'],
  ['privatekey', 'secret'],
  ['clientsecret', 'secret'],
];

const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/** Every secret name contains one of these; most names (`role`, `content`, `type`) are rejected right here. */
export const MENTIONS_SECRET = /pass|pwd|secret|token|key|auth|credential|jwt|bearer|pat/i;

/** Splits a name into lowercase words: separators, camelCase and acronyms (`XApiKey` → x, api, key). */
export function nameWords(name: string): string[] {
  const words: string[] = [];
  for (const match of name.matchAll(WORD)) words.push(match[0].toLowerCase());
  while (words.length > 1 && /^[0-9]+$/.test(words[words.length - 1] ?? '')) words.pop();
  while (words.length > 1 && (words[0] === 'self' || words[0] === 'this')) words.shift();
  return words;
}

/**
 * Whether a name announces a secret value, and how strongly. Decided on the last word (what the thing *is*:
 * `password_field` is a field, `max_tokens` a count, `TOKEN_LIMIT` a limit) and the word before it.
 */
export function classifySecretName(name: string): SecretNameClass | undefined {
  if (name.length === 0 || name.length > 100 || !MENTIONS_SECRET.test(name)) return undefined;
  const known = CLASSES.get(name);
  if (known !== undefined) return known === 'none' ? undefined : known;
  const nameClass = classify(name);
  // The same few hundred names come back all the time (`api_key`, `token`, `max_tokens`).
  if (CLASSES.size >= MAX_CLASSES) CLASSES.clear();
  CLASSES.set(name, nameClass ?? 'none');
  return nameClass;
}

const CLASSES = new Map<string, SecretNameClass | 'none'>();
const MAX_CLASSES = 4096;

function classify(name: string): SecretNameClass | undefined {
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  const prev = words[words.length - 2];
  const count = words.length;
  if (PASSWORD_WORDS.has(last)) return 'password';
  if ((last === 'pwd' || last === 'pass') && count >= 2) return 'password';
  if ((last === 'confirmation' || last === 'confirm') && prev !== undefined && PASSWORD_WORDS.has(prev))
    return 'password';
  switch (last) {
    case 'secret':
    case 'secrets':
    case 'credential':
    case 'credentials':
    case 'apikey':
    case 'jwt':
    case 'bearer':
      return 'secret';
    case 'token':
      if (prev === undefined) return 'weak';
      return TOKEN_NOT_SECRET.has(prev) ? undefined : 'secret';
    case 'tokens':
      return prev !== undefined && TOKENS_SECRET.has(prev) ? 'secret' : undefined;
    case 'key':
    case 'keys':
      return keyClass(name, prev);
    case 'auth':
      return count >= 2 || name.startsWith('_') ? 'secret' : undefined;
    case 'pat':
      return count >= 2 ? 'secret' : undefined;
    default:
      return count === 1 ? compoundClass(last) : undefined;
  }
}

/**
 * `API_KEY`, `signing_key`: a secret. Any other `<WORD>_KEY` in an environment-style name (`STRIPE_KEY`, but
 * also `STORAGE_KEY = 'todo-list'`) only when its value looks random, hence `weak`.
 */
function keyClass(name: string, prev: string | undefined): SecretNameClass | undefined {
  if (prev === undefined) return undefined;
  if (KEY_SECRET.has(prev)) return 'secret';
  const envStyle = /^[A-Z0-9_]+$/.test(name);
  return envStyle && !KEY_NOT_SECRET.has(prev) ? 'weak' : undefined;
}

/**
 * Headers whose value is a credential behind a scheme or a list of pairs (`Bearer …`, `sid=…; theme=…`): under
 * such a key, structured data is redacted as the header line `Name: value` would be.
 */
export function isCredentialHeader(name: string): boolean {
  return /^(?:proxy-)?authorization$|^(?:set-)?cookie$/i.test(name);
}

function compoundClass(word: string): SecretNameClass | undefined {
  for (const [suffix, kind] of COMPOUNDS) if (word.endsWith(suffix)) return kind;
  return undefined;
}
