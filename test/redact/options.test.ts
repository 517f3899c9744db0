import { describe, expect, it } from 'vitest';
import { isCondenseError } from '../../src/errors/condense-error.js';
import { createRedactor, redactText } from '../../src/redact/index.js';
import { FAKE } from './fixtures.js';

describe('codeFile', () => {
  const source = [
    `DB_PASSWORD = "hardcoded-Pass-1"`,
    `client = OpenAI(api_key="${FAKE.openai}")`,
    `headers = {"Authorization": "Bearer ${FAKE.sessionId}"}`,
    `engine = create_engine("postgresql://app:Db-Pass-2@db/app")`,
    `key = """${'-----BEGIN'} PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"""`,
  ].join('\n');

  it('skips the name-based passes', () => {
    const { text } = redactText(source, { codeFile: true });
    expect(text).toContain('hardcoded-Pass-1');
  });

  it('keeps the high-confidence passes', () => {
    const { text, findings } = redactText(source, { codeFile: true });
    expect(text).not.toContain(FAKE.openai.slice(6, -4));
    expect(text).not.toContain(FAKE.sessionId);
    expect(text).not.toContain('Db-Pass-2');
    expect(text).toContain('«redacted private key»');
    expect(new Set(findings.map((finding) => finding.kind))).toEqual(
      new Set(['openai-key', 'authorization-header', 'connection-string', 'private-key']),
    );
  });

  it('masks the name-based secrets when off', () => {
    expect(redactText(source).text).not.toContain('hardcoded-Pass-1');
  });
});

describe('allow', () => {
  it('keeps allowed strings and values matching allowed patterns', () => {
    const text = `AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nOTHER_TOKEN=${FAKE.hex40}\nPUBLIC_TEST_TOKEN=test-token-0001`;
    const { text: out } = redactText(text, { allow: ['AKIAIOSFODNN7EXAMPLE', /^test-token-\d+$/] });
    expect(out).toContain('AKIAIOSFODNN7EXAMPLE');
    expect(out).toContain('test-token-0001');
    expect(out).not.toContain(FAKE.hex40.slice(6, -4));
  });

  it('applies to whole values under secret keys in structured data', () => {
    const redactor = createRedactor({ allow: ['public-demo-password'] });
    expect(redactor.field('public-demo-password', 'password').text).toBe('public-demo-password');
    expect(redactor.field('real-Password-1', 'password').text).toBe('«redacted»');
  });

  it('is not affected by a global flag on an allow pattern', () => {
    const redactor = createRedactor({ allow: [/keep-me-\d+/g] });
    for (let round = 0; round < 3; round++)
      expect(redactor.text('PASSWORD=keep-me-42').text).toBe('PASSWORD=keep-me-42');
  });
});

describe('patterns', () => {
  it('masks matches of user patterns with a custom kind', () => {
    const { text, findings } = redactText('employee id EMP-123456 and EMP-654321', {
      patterns: [{ name: 'employee', pattern: 'EMP-\\d{6}' }],
    });
    expect(text).toBe('employee id «redacted» and «redacted»');
    expect(findings.map((finding) => finding.kind)).toEqual(['custom:employee', 'custom:employee']);
  });

  it('masks only the group named secret when there is one', () => {
    const { text } = redactText('internal key: ik=0123456789abcdef0123456789', {
      patterns: [{ name: 'internal', pattern: /ik=(?<secret>[0-9a-f]{26})/ }],
    });
    expect(text).toBe('internal key: ik=012345…6789');
  });

  it('survives patterns that match the empty string', () => {
    expect(redactText('abc', { patterns: [{ name: 'empty', pattern: 'x*' }] }).text).toBe('abc');
  });

  it('rejects an invalid pattern with INVALID_OPTIONS', () => {
    let error: unknown;
    try {
      createRedactor({ patterns: [{ name: 'broken', pattern: '(unclosed' }] });
    } catch (caught) {
      error = caught;
    }
    expect(isCondenseError(error) && error.code).toBe('INVALID_OPTIONS');
  });
});
