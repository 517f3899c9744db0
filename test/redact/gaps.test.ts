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
