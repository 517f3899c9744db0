import { describe, expect, it } from 'vitest';
import { createRedactor, redactJsonText, redactText } from '../../src/redact/index.js';
import { isMasked, maskSpans } from '../../src/redact/mask.js';
import { FAKE, fakeBody } from './fixtures.js';

/** A 40-character random token, the shape the issue reports. */
const TOKEN = fakeBody(900, 40);

function clean(text: string, secret: string): void {
  const out = redactText(text).text;
  expect(out).not.toContain(secret.length >= 24 ? secret.slice(6, -4) : secret);
  expect(redactText(out).text).toBe(out);
}

describe('a value glued to a mask', () => {
  it.each([
    ['a password before a mask', 'password=hunter2-Pw9«redacted»', 'hunter2-Pw9'],
    ['a password after a mask', 'postgres://u:«redacted»p4ss-Word9@h/db', 'p4ss-Word9'],
    ['a token after a mask', `Authorization: Bearer «redacted»${TOKEN}`, TOKEN],
    ['a token after kept ends', `export API_TOKEN=abcdef…wxyz${TOKEN}`, TOKEN],
  ])('is masked except for the mask itself (%s)', (_name, text, secret) => {
    clean(text, secret);
  });

  it('leaves what is only masks alone', () => {
    for (const text of [
      'password=«redacted»',
      'API_TOKEN=sk-pro…abcd',
      'postgres://u:«redacted»«redacted»@h/db',
    ])
      expect(redactText(text).text).toBe(text);
  });

  it('knows the spans masks cover', () => {
    expect(maskSpans('a «redacted» b sk-pro…abcd c')).toEqual([2, 12, 15, 26]);
    expect(isMasked('«redacted»«redacted private key»')).toBe(true);
    expect(isMasked('hunter2«redacted»')).toBe(false);
    expect(isMasked('sk-proj-abcdef…wxyz')).toBe(false);
  });
});

describe('headers held as JSON', () => {
  const args = JSON.stringify({
    url: 'https://api.example.com',
    headers: { Authorization: `Bearer ${TOKEN}` },
  });

  it('masks the token of an Authorization value in tool-call arguments and keeps the scheme', () => {
    const { value } = redactJsonText(args, createRedactor());
    expect(value).not.toContain(TOKEN.slice(6, -4));
    expect(JSON.parse(value).headers.Authorization).toMatch(/^Bearer /);
  });

  it('masks header values at any depth and in header pairs', () => {
    const nested = JSON.stringify({
      a: [{ b: { headers: { 'Proxy-Authorization': `Basic ${FAKE.base64Key}` } } }],
    });
    expect(redactJsonText(nested, createRedactor()).value).not.toContain(FAKE.base64Key.slice(6, -4));
    const pairs = JSON.stringify({
      headers: [
        ['Authorization', `token ${TOKEN}`],
        ['Cookie', `sid=${TOKEN}`],
      ],
    });
    const out = redactJsonText(pairs, createRedactor()).value;
    expect(out).not.toContain(TOKEN.slice(6, -4));
    expect(JSON.parse(out).headers[0][0]).toBe('Authorization');
  });

  it('keeps escaped JSON valid when a header value in it is masked whole', () => {
    const inner = JSON.stringify({ Authorization: `Basic ${TOKEN}`, 'X-Api-Key': TOKEN });
    const outer = JSON.stringify({ body: inner });
    const twice = JSON.stringify({ request: outer });
    for (const text of [outer, twice]) {
      const out = redactText(text).text;
      expect(out).not.toContain(TOKEN.slice(6, -4));
      expect(() => JSON.parse(out)).not.toThrow();
    }
  });
});

describe('secrets the rules used to miss', () => {
  const half = Math.floor(FAKE.anthropic.length / 2);
  it.each([
    [
      'kubectl --from-literal',
      'kubectl create secret generic db --from-literal=password=Kube-Pw-41',
      'Kube-Pw-41',
    ],
    ['helm --set', 'helm upgrade app ./chart --set postgresql.auth.password=Helm-Pw-42', 'Helm-Pw-42'],
    ['terraform -var', `terraform apply -var 'db_password=Tf-Pw-43'`, 'Tf-Pw-43'],
    ['aws configure set', `aws configure set aws_secret_access_key ${FAKE.awsSecret}`, FAKE.awsSecret],
    ['npm config set', `npm config set //registry.npmjs.org/:_authToken ${TOKEN}`, TOKEN],
    ['git config', 'git config --global user.password Git-Pw-44', 'Git-Pw-44'],
    ['gh secret set', `gh secret set DEPLOY_KEY --body ${TOKEN}`, TOKEN],
    ['echo of a YAML line', "echo 'password: Echo-Pw-45' >> config.yml", 'Echo-Pw-45'],
    ['a quoted assignment', `print("api_key=${TOKEN}")`, TOKEN],
    ['prose', 'my password is Prose-Pw-46', 'Prose-Pw-46'],
    ['prose with a quoted value', 'The password is "swordfish"', 'swordfish'],
    ['prose about a key', `the API key is ${TOKEN}, keep it safe`, TOKEN],
    ['a password mid-line', 'ssh in as root, password: Root-Pw-47', 'Root-Pw-47'],
    ['the second -p of mysql', 'mysql -pFirst-Pw-48 -h db -pSecond-Pw-49 shop', 'Second-Pw-49'],
    ['htpasswd batch mode', 'htpasswd -b /etc/nginx/.htpasswd admin Ht-Pw-50', 'Ht-Pw-50'],
    ['htpasswd to stdout', 'htpasswd -nbB admin Ht-Pw-51', 'Ht-Pw-51'],
    ['a basic-auth tuple', 'requests.get(url, auth=("admin","Tuple-Pw-52"))', 'Tuple-Pw-52'],
    ['HTTPBasicAuth', "session.auth = HTTPBasicAuth('admin', 'Tuple-Pw-53')", 'Tuple-Pw-53'],
    [
      'a key wrapped over two lines',
      `export ANTHROPIC_API_KEY=${FAKE.anthropic.slice(0, half)}\n${FAKE.anthropic.slice(half)}\n`,
      FAKE.anthropic.slice(half),
    ],
    [
      'a key wrapped inside escaped JSON text',
      `{"stdout": "Authorization: Bearer ${TOKEN}\\n${fakeBody(901, 30)}"}`,
      fakeBody(901, 30),
    ],
  ])('catches %s', (_name, text, secret) => {
    const out = redactText(text).text;
    expect(out).not.toContain(secret.length >= 24 ? secret.slice(6, -4) : secret);
    expect(redactText(out).text).toBe(out);
  });

  it.each([
    ['a flag whose value names no secret', 'kubectl create configmap c --from-literal=mode=production'],
    ['a password field name in a quoted string', 'print("password: " + mask(pw))'],
    ['a format string', 'log.info("token=%s", token_id)'],
    ['prose about passwords', 'The password is required, and the token is valid for one hour.'],
    ['prose with a path', 'the password is stored in ~/.pgpass on the server'],
    ['a password variable in code', 'password = get_password(user)'],
    ['htpasswd without batch mode', 'htpasswd -c /etc/nginx/.htpasswd admin'],
    [
      'git log after a header line',
      `Authorization: Bearer ${TOKEN}\n${fakeBody(902, 40, '0123456789abcdef')} fix`,
    ],
    ['an auth tuple of references', 'auth=(os.environ["USER"], os.environ["PASS"])'],
  ])('leaves alone %s', (_name, text) => {
    const { text: out, findings } = redactText(text);
    const masked = findings.map((finding) => text.slice(finding.start, finding.end));
    expect(masked.filter((value) => value !== TOKEN)).toEqual([]);
    expect(out.split('\n').length).toBe(text.split('\n').length);
  });
});

describe('JSON text inside a text', () => {
  it.each([
    [
      'an assignment after an escaped line break',
      `{"stdout":"ok\\nDB_PASSWORD=Esc-Pw-60\\nDONE=1"}`,
      'Esc-Pw-60',
    ],
    ['a vendor key after an escaped line break', `{"output":"key:\\n${FAKE.openai}"}`, FAKE.openai],
    ['a YAML password after an escaped tab', `{"yaml":"db:\\n\\tpassword: Esc-Pw-61"}`, 'Esc-Pw-61'],
    [
      'an assignment in JSON escaped twice',
      JSON.stringify({ result: JSON.stringify({ stdout: `ok\nAPI_TOKEN=${TOKEN}\n` }) }),
      TOKEN,
    ],
  ])('catches %s and keeps the escapes', (_name, text, secret) => {
    const out = redactText(text).text;
    expect(out).not.toContain(secret.length >= 24 ? secret.slice(6, -4) : secret);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(redactText(out).text).toBe(out);
  });
});

describe('lines a model writes into a checkpoint', () => {
  it.each([
    ['a Dockerfile line in a list', '- ENV SECRET_KEY django-insecure-Ck-70', 'django-insecure-Ck-70'],
    ['a fish line in a list', `* set -gx ANTHROPIC_KEY ${TOKEN}`, TOKEN],
    ['an export in a quote', `> export API_TOKEN=${TOKEN}`, TOKEN],
    ['a YAML key in a list', '- password: Ck-Pw-71', 'Ck-Pw-71'],
  ])('catches %s', (_name, text, secret) => {
    expect(redactText(`## Critical Context\n${text}\n`).text).not.toContain(
      secret.length >= 24 ? secret.slice(6, -4) : secret,
    );
  });
});
