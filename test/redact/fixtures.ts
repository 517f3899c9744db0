/**
 * Fake but well-formed secrets, assembled at run time so that no token-shaped literal sits in the repository
 * (secret scanners would flag it). Bodies come from a fixed-seed generator: deterministic, random-looking.
 */
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const URLSAFE = `${ALNUM}_-`;
const HEX = '0123456789abcdef';

/** A deterministic random-looking string. */
export function fakeBody(seed: number, length: number, alphabet: string = ALNUM): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  let out = '';
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return out;
}

const join = (...parts: string[]): string => parts.join('');

/** One fake secret per vendor family. */
export const FAKE = {
  openai: join('sk-', 'proj-', fakeBody(1, 48, URLSAFE)),
  openaiLegacy: join('sk', '-', fakeBody(2, 48)),
  anthropic: join('sk-', 'ant-', 'api03-', fakeBody(3, 93, URLSAFE), 'AA'),
  openrouter: join('sk-', 'or-', 'v1-', fakeBody(4, 64, HEX)),
  githubClassic: join('gh', 'p_', fakeBody(5, 36)),
  githubOauth: join('gh', 'o_', fakeBody(6, 36)),
  githubApp: join('gh', 's_', fakeBody(60, 36)),
  githubFineGrained: join('github', '_pat_', fakeBody(7, 22), '_', fakeBody(8, 59)),
  gitlab: join('gl', 'pat-', fakeBody(9, 20, URLSAFE)),
  slackBot: join('xo', 'xb-', fakeBody(10, 12, DIGITS), '-', fakeBody(11, 13, DIGITS), '-', fakeBody(12, 24)),
  slackApp: join(
    'xa',
    'pp-1-',
    'A0',
    fakeBody(13, 9, UPPER + DIGITS),
    '-',
    fakeBody(14, 13, DIGITS),
    '-',
    fakeBody(15, 64, HEX),
  ),
  slackWebhookPath: join(
    'T',
    fakeBody(16, 8, UPPER + DIGITS),
    '/B',
    fakeBody(17, 10, UPPER + DIGITS),
    '/',
    fakeBody(18, 24),
  ),
  stripeLive: join('sk', '_live_', fakeBody(19, 24)),
  stripeRestricted: join('rk', '_test_', fakeBody(20, 24)),
  stripeWebhook: join('wh', 'sec_', fakeBody(21, 32)),
  awsAccessKeyId: join('AK', 'IA', fakeBody(22, 16, UPPER + DIGITS)),
  awsTemporaryKeyId: join('AS', 'IA', fakeBody(23, 16, UPPER + DIGITS)),
  awsSecret: fakeBody(24, 40, `${ALNUM}/+`),
  google: join('AI', 'za', fakeBody(25, 35, URLSAFE)),
  googleOauth: join('ya', '29.', fakeBody(26, 120, URLSAFE)),
  googleClientSecret: join('GOC', 'SPX-', fakeBody(27, 28, URLSAFE)),
  huggingface: join('hf', '_', fakeBody(28, 34)),
  npm: join('np', 'm_', fakeBody(29, 36)),
  pypi: join('py', 'pi-', 'AgEIcHlwaS5vcmc', fakeBody(30, 70, URLSAFE)),
  twilio: join('S', 'K', fakeBody(31, 32, HEX)),
  sendgrid: join('S', 'G.', fakeBody(32, 22, URLSAFE), '.', fakeBody(33, 43, URLSAFE)),
  telegram: join('7', fakeBody(34, 9, DIGITS), ':', 'AA', fakeBody(35, 33, URLSAFE)),
  discord: join('M', fakeBody(36, 25), '.', fakeBody(37, 6, URLSAFE), '.', fakeBody(38, 38, URLSAFE)),
  discordWebhookToken: fakeBody(39, 68, URLSAFE),
  groq: join('gs', 'k_', fakeBody(40, 52)),
  jwt: join(
    'eyJ',
    'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
    '.',
    'eyJ',
    fakeBody(41, 60, URLSAFE),
    '.',
    fakeBody(42, 43, URLSAFE),
  ),
  hex40: fakeBody(43, 40, HEX),
  hex32: fakeBody(44, 32, HEX),
  base64Key: fakeBody(45, 64, `${ALNUM}+/`),
  sessionId: fakeBody(46, 32, `${LOWER}${DIGITS}`),
} as const;

/** A PEM private key block with a fake body. */
export function fakePem(label: string, lines = 6, newline = '\n'): string {
  const body: string[] = [];
  for (let index = 0; index < lines; index++) body.push(fakeBody(100 + index, 64, `${ALNUM}+/`));
  return [`-----BEGIN ${label}-----`, ...body, `${fakeBody(99, 20, ALNUM)}==`, `-----END ${label}-----`].join(
    newline,
  );
}

/** Body lines of {@link fakePem}, to check that none survives. */
export function pemBodyLine(index: number): string {
  return fakeBody(100 + index, 64, `${ALNUM}+/`);
}
